import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ReservationReads } from "@hotel/persistence/booking/ReservationReads"
import { HotelApi } from "@hotel/api/Api"
import { presentListItem, presentReservation } from "@hotel/persistence/booking/ReservationView"
import { BookingRead, Reservation } from "@hotel/api/booking/Api"
import { taggedJson } from "../platform/ConditionalRead.js"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { Confirmations } from "@hotel/persistence/booking/Confirmations"
import { Holds } from "@hotel/persistence/booking/Holds"
import { CurrentRequestId } from "@hotel/api/common/Envelope"
import { presentConfirmation, presentHold, presentCancellation } from "./HoldPresenter.js"
import { Cancellations } from "@hotel/persistence/booking/Cancellations"
import { CancellationQuote } from "@hotel/persistence/booking/CancellationQuote"
import { presentCancellationQuote } from "../stays/StayPresenter.js"
import * as Layer from "effect/Layer"
import { roomRequestOf } from "./requests.js"
import { BookingCancellations } from "@hotel/persistence/booking/BookingCancellations"
import { BookingConfirmations } from "@hotel/persistence/booking/BookingConfirmations"
import { BookingReads } from "@hotel/persistence/booking/BookingReads"
import { Bookings } from "@hotel/persistence/booking/Bookings"
import { presentBooking, presentBookingCancelled, presentBookingConfirmed, presentBookingCreated } from "./BookingPresenter.js"

const ReservationReadHandlers = HttpApiBuilder.group(HotelApi, "reservationReads", (handlers) =>
  Effect.gen(function*() {
    const reservations = yield* ReservationReads
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const page = yield* reservations.list(key.propertyId, {
            guestId: query.guest_id,
            bookingId: query.booking_id,
            status: query.status,
            limit: query.limit ?? 25,
            offset: query.offset ?? 0
          })
          return { has_more: page.hasMore, data: page.records.map(presentListItem) }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return taggedJson(Reservation, presentReservation(yield* reservations.get(key.propertyId, params.id)))
        }))
  }))

const HoldHandlers = HttpApiBuilder.group(HotelApi, "holds", (handlers) =>
  Effect.gen(function*() {
    const holds = yield* Holds
    const confirmations = yield* Confirmations
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const hold = yield* holds.create(
            { propertyId: key.propertyId, apiKeyId: key.id, salesContext: key.context },
            {
              ...roomRequestOf(payload),
              checkIn: payload.check_in,
              checkOut: payload.check_out,
              guestId: payload.guest_id
            }
          )
          return presentHold(hold)
        }))
      .handle("confirm", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const requestId = yield* Effect.service(CurrentRequestId)
          const result = yield* confirmations.confirm(
            { propertyId: key.propertyId, apiKeyId: key.id, requestId },
            params.id,
            {
              paymentReference: payload.payment_reference,
              paymentCurrency: payload.payment_currency ?? null,
              paymentAmount: payload.payment_amount ?? null
            }
          )
          return presentConfirmation(result)
        }))
  }))

const ReservationActionHandlers = HttpApiBuilder.group(HotelApi, "reservationActions", (handlers) =>
  Effect.gen(function*() {
    const cancellations = yield* Cancellations
    return handlers.handle("cancel", ({ headers, params, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const result = yield* cancellations.cancel(key.propertyId, params.id, payload.reason ?? null, headers["if-match"])
        return presentCancellation(result)
      }))
  }))

const CancellationQuoteHandlers = HttpApiBuilder.group(HotelApi, "cancellationQuote", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* CancellationQuote
    return handlers.handle("get", ({ params }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        return presentCancellationQuote(yield* quotes.quote(key.propertyId, params.id))
      }))
  }))

// The `bookings` group: decode, call the booking's service, present.

const BookingHandlers = HttpApiBuilder.group(HotelApi, "bookings", (handlers) =>
  Effect.gen(function*() {
    const bookings = yield* Bookings
    const reads = yield* BookingReads
    const confirmations = yield* BookingConfirmations
    const cancellations = yield* BookingCancellations
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const created = yield* bookings.create(
            { propertyId: key.propertyId, apiKeyId: key.id, salesContext: key.context },
            {
              guestId: payload.guest_id,
              checkIn: payload.check_in,
              checkOut: payload.check_out,
              rooms: payload.rooms.map(roomRequestOf)
            }
          )
          return presentBookingCreated(created)
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return taggedJson(BookingRead, presentBooking(yield* reads.get(key.propertyId, params.id)))
        }))
      .handle("confirm", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const requestId = yield* Effect.service(CurrentRequestId)
          const confirmed = yield* confirmations.confirm(
            { propertyId: key.propertyId, apiKeyId: key.id, requestId },
            params.id,
            {
              paymentReference: payload.payment_reference,
              paymentCurrency: payload.payment_currency ?? null,
              paymentAmount: payload.payment_amount ?? null
            }
          )
          return presentBookingConfirmed(confirmed)
        }))
      .handle("cancel", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentBookingCancelled(yield* cancellations.cancel(key.propertyId, params.id, payload.reason ?? null))
        }))
  }))

/** The services the `bookings` group calls. */
const BookingServicesLive = Layer.mergeAll(
  Bookings.layer,
  BookingReads.layer,
  BookingConfirmations.layer,
  BookingCancellations.layer
)

/** The `booking` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpBookingLive = Layer.mergeAll(
  ReservationReadHandlers,
  HoldHandlers,
  ReservationActionHandlers,
  CancellationQuoteHandlers,
  BookingHandlers
).pipe(Layer.provide(Layer.mergeAll(
  ReservationReads.layer,
  Holds.layer,
  Confirmations.layer,
  Cancellations.layer,
  CancellationQuote.layer,
  BookingServicesLive
)))
