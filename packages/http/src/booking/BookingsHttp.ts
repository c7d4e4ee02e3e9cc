import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import { BookingCancellations } from "@hotel/persistence/booking/BookingCancellations"
import { BookingConfirmations } from "@hotel/persistence/booking/BookingConfirmations"
import { BookingReads } from "@hotel/persistence/booking/BookingReads"
import { Bookings } from "@hotel/persistence/booking/Bookings"
import { HotelApi } from "../Api.js"
import { currentRequestId } from "../common/Envelope.js"
import { CurrentApiKey } from "../common/Security.js"
import { presentBooking, presentBookingCancelled, presentBookingConfirmed, presentBookingCreated } from "./BookingsPresenter.js"
import { roomRequestOf } from "./requests.js"

// The `bookings` group: decode, call the booking's service, present.

export const BookingHandlers = HttpApiBuilder.group(HotelApi, "bookings", (handlers) =>
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
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentBooking(yield* reads.get(key.propertyId, path.id))
        }))
      .handle("confirm", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const requestId = yield* FiberRef.get(currentRequestId)
          const confirmed = yield* confirmations.confirm(
            { propertyId: key.propertyId, apiKeyId: key.id, requestId },
            path.id,
            {
              paymentReference: payload.payment_reference,
              paymentCurrency: payload.payment_currency ?? null,
              paymentAmount: payload.payment_amount ?? null
            }
          )
          return presentBookingConfirmed(confirmed)
        }))
      .handle("cancel", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentBookingCancelled(yield* cancellations.cancel(key.propertyId, path.id, payload.reason ?? null))
        }))
  }))

/** The services the `bookings` group calls. */
export const BookingServicesLive = Layer.mergeAll(
  Bookings.Default,
  BookingReads.Default,
  BookingConfirmations.Default,
  BookingCancellations.Default
)
