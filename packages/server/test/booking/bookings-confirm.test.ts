import { expect, layer } from "@effect/vitest"
import {
  AmountMismatch,
  BookingNotFound,
  CurrencyMismatch,
  NotCancellable,
  NotConfirmable,
  PaymentReferenceReused
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import { cancel, confirm, folioLines, getReservation, hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { book, bookingBody, cancelBooking, confirmBooking, getBooking, importedRoom } from "../utils/bookings.js"
import { expectFailure } from "../utils/client.js"
import { allEvents } from "../events/feed.js"
import { expectError } from "../utils/rateManagement.js"
import { charge } from "../utils/stay.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// POST /bookings/{id}/confirm and /cancel: every room together, with a hold's confirm and a reservation's
// cancel applied to each. Real time; each test has its own property from `importRoomTypes`.

const stay = { check_in: "2031-09-01", check_out: "2031-09-03" }

/** A property with room type A (4 rooms), and a booking of `rooms` rooms of it for its guest. */
const booked = (api: TestApiService, rooms = 2) =>
  Effect.gen(function*() {
    const setup = yield* importRoomTypes(api, { A: 4 })
    const body = bookingBody(setup.guest, Array.from({ length: rooms }, (_, i) => importedRoom(setup.imported, "A", { adults: 1 + (i % 2) })), stay)
    const booking = yield* book(api, body, { key: setup.key })
    return { ...setup, booking }
  })

const paymentsOf = (api: TestApiService, reference: string) =>
  api.sql<{ reservation_id: string; folio_id: string; amount: string; booking_id: string | null }>`
    SELECT reservation_id, folio_id, amount::text AS amount, booking_id FROM payments WHERE reference = ${reference}
    ORDER BY amount`.pipe(Effect.orDie)

layer(TestApiLive, { excludeTestServices: true })("POST /bookings/{id}/confirm and /cancel", (it) => {
  it.effect("confirm: every room confirmed, each folio paid its own total under the booking's reference", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api)
      const reference = `pay_${globalThis.crypto.randomUUID()}`
      const before = yield* allEvents(api, key)
      const done = yield* confirmBooking(api, booking.booking_id, { payment_reference: reference, payment_currency: "eur", payment_amount: Number(booking.total) }, { key })
      expect(done).toEqual({
        booking_id: booking.booking_id,
        status: "confirmed",
        currency: "EUR",
        total: booking.total,
        folio_balance: "0.00",
        // over the booking's folios together: every room's charges, and the one payment shared among them
        balances: [{ currency: "EUR", charges: booking.total, payments: booking.total, balance: "0.00" }],
        already_confirmed: false,
        reservations: booking.reservations.map((r) => ({ reservation_id: r.reservation_id, status: "confirmed" }))
      })
      for (const room of booking.reservations) {
        const lines = yield* folioLines(api.sql, room.folio_id)
        expect(lines.filter((l) => l.kind === "payment").map((l) => [Number(l.amount).toFixed(2), l.description]))
          .toEqual([[room.total, `Payment ${reference}`]])
      }
      const payments = yield* paymentsOf(api, reference)
      expect(payments.map((p) => p.booking_id)).toEqual([booking.booking_id, booking.booking_id])
      expect(payments.map((p) => Number(p.amount).toFixed(2)).sort()).toEqual(booking.reservations.map((r) => r.total).sort())
      const read = yield* Effect.flatMap(api.clientFor(key), (client) => client.bookings.get({ params: { id: booking.booking_id } }))
      expect(read.reservations.map((r) => [r.status, r.folio_balance])).toEqual([["confirmed", "0.00"], ["confirmed", "0.00"]])
      const events = yield* allEvents(api, key, { after: before[before.length - 1]?.id })
      expect(events.map((e) => e.type)).toEqual(["reservation.confirmed", "reservation.confirmed"])

      // A repeat answers the same, records nothing, whatever the reference.
      const again = yield* confirmBooking(api, booking.booking_id, { payment_reference: "another" }, { key })
      expect(again).toEqual({ ...done, already_confirmed: true })
      expect(yield* paymentsOf(api, reference)).toHaveLength(2)
      expect(yield* paymentsOf(api, "another")).toHaveLength(0)
    }))

  it.effect("the payment assertions are the booking's: its total and its currency", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api)
      const first = Number(booking.reservations[0].total)
      const path = `/bookings/${booking.booking_id}/confirm`
      const amount = yield* expectFailure(
        confirmBooking(api, booking.booking_id, { payment_reference: "pay-1", payment_amount: first }, { key }),
        AmountMismatch,
        "payment_amount"
      )
      expect(amount.message).toContain(booking.total)
      yield* expectFailure(confirmBooking(api, booking.booking_id, { payment_reference: "pay-1", payment_currency: "USD" }, { key }), CurrencyMismatch, "payment_currency")
      yield* expectFailure(confirmBooking(api, booking.booking_id, { payment_amount: "1.00" }, { key }), AmountMismatch, "payment_amount")
      yield* expectFailure(confirmBooking(api, booking.booking_id, { payment_currency: "JPY" }, { key }), CurrencyMismatch, "payment_currency")
      expectError(yield* api.post(path, { payment_reference: "" }, { key }), 400, "invalid_request", "invalid_parameters", "payment_reference")
      expect(yield* paymentsOf(api, "pay-1")).toHaveLength(0)
      expect((yield* confirmBooking(api, booking.booking_id, { payment_amount: booking.total }, { key })).already_confirmed).toBe(false)
    }))

  it.effect("a charge posted on a room: payment_amount is compared with the folios' total, and the mismatch says so", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api, 1)
      const room = booking.reservations[0]
      yield* charge(api, room.reservation_id, { amount: "10.00" }, { key })
      const folios = (Number(booking.total) + 10).toFixed(2)
      const error = yield* expectFailure(
        confirmBooking(api, booking.booking_id, { payment_reference: "pay-charged", payment_amount: booking.total }, { key }),
        AmountMismatch,
        "payment_amount"
      )
      expect(error.message).toBe(
        `payment_amount ${booking.total} differs from the folios' total ${folios} EUR (what the booking's folios say is due)`
      )
      expect(yield* paymentsOf(api, "pay-charged")).toHaveLength(0)
      const done = yield* confirmBooking(api, booking.booking_id, { payment_reference: "pay-charged", payment_amount: folios }, { key })
      expect([done.total, done.folio_balance]).toEqual([booking.total, "0.00"])
    }))

  it.effect("a reservation of a booking is paid only with its booking: POST /holds/{id}/confirm is 409 not_confirmable; once confirmed, already_confirmed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api)
      const room = booking.reservations[0].reservation_id
      yield* expectFailure(confirm(api, room, { payment_reference: "pay-alone" }, { key }), NotConfirmable)
      yield* confirmBooking(api, booking.booking_id, { payment_reference: "pay-together" }, { key })
      // Confirming a confirmed reservation answers its result, whatever is sent, and records nothing.
      for (const body of [{}, { payment_reference: "pay-together" }, { payment_reference: "pay-alone" }]) {
        const again = yield* confirm(api, room, body, { key })
        expect([again.reservation_id, again.status, again.already_confirmed]).toEqual([room, "confirmed", true])
      }
      expect((yield* paymentsOf(api, "pay-together")).length).toBe(2)
      expect(yield* paymentsOf(api, "pay-alone")).toEqual([])
    }))

  it.effect("a payment reference belongs to one booking or one reservation: reuse either way is 409", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, guest, imported, key } = yield* booked(api)
      const other = yield* book(api, bookingBody(guest, [importedRoom(imported, "A")], stay), { key })
      const single = yield* hold(api, importedHoldBody(imported, "A", guest, { check_in: "2031-09-10", check_out: "2031-09-11" }), { key })
      yield* confirmBooking(api, booking.booking_id, { payment_reference: "pay-booking" }, { key })
      yield* expectFailure(confirmBooking(api, other.booking_id, { payment_reference: "pay-booking" }, { key }), PaymentReferenceReused)
      yield* expectFailure(confirm(api, single.reservation_id, { payment_reference: "pay-booking" }, { key }), PaymentReferenceReused)
      yield* confirm(api, single.reservation_id, { payment_reference: "pay-single" }, { key })
      yield* expectFailure(confirmBooking(api, other.booking_id, { payment_reference: "pay-single" }, { key }), PaymentReferenceReused)
      expect((yield* getReservation(api, other.reservations[0].reservation_id, { key })).status).toBe("tentative")
    }))

  it.effect("once a room is cancelled the booking's confirm is 409 not_confirmable and confirms nothing", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api)
      yield* cancel(api, booking.reservations[1].reservation_id, {}, { key })
      const refused = yield* expectFailure(confirmBooking(api, booking.booking_id, { payment_reference: "pay-half" }, { key }), NotConfirmable)
      expect(refused.message).toContain("rooms[1]")
      expect((yield* getReservation(api, booking.reservations[0].reservation_id, { key })).status).toBe("tentative")
      expect(yield* paymentsOf(api, "pay-half")).toHaveLength(0)
    }))

  it.effect("cancel: every room that can be, its refund and the sum; then 409 not_cancellable", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api, 3)
      yield* confirmBooking(api, booking.booking_id, {}, { key })
      yield* cancel(api, booking.reservations[2].reservation_id, {}, { key })
      const before = yield* allEvents(api, key)
      const client = yield* api.clientFor(key)
      const done = yield* client.bookings.cancel({ headers: {}, params: { id: booking.booking_id }, payload: { reason: "Family plans changed" } })
      const minor = (total: string) => Math.round(Number(total) * 100)
      expect(done).toEqual({
        booking_id: booking.booking_id,
        refund_due_minor: minor(booking.reservations[0].total) + minor(booking.reservations[1].total),
        reservations: [
          { reservation_id: booking.reservations[0].reservation_id, status: "cancelled", refund_due_minor: minor(booking.reservations[0].total) },
          { reservation_id: booking.reservations[1].reservation_id, status: "cancelled", refund_due_minor: minor(booking.reservations[1].total) },
          { reservation_id: booking.reservations[2].reservation_id, status: "cancelled", refund_due_minor: 0 }
        ]
      })
      const room = yield* getReservation(api, booking.reservations[0].reservation_id, { key })
      expect([room.cancellation_reason, room.folio_balance]).toEqual(["Family plans changed", "0.00"])
      const events = yield* allEvents(api, key, { after: before[before.length - 1]?.id })
      expect(events.map((e) => e.type)).toEqual(["reservation.cancelled", "reservation.cancelled", "availability.changed"])
      expect(events[0].data["refund_due_minor"]).toBe(minor(booking.reservations[0].total))
      yield* expectFailure(cancelBooking(api, booking.booking_id, {}, { key }), NotCancellable)
      expect((yield* getBooking(api, booking.booking_id).pipe(Effect.result))._tag).toBe("Failure")
    }))

  it.effect("a booking's room can be cancelled on its own; unknown bookings are 404 booking_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { booking, key } = yield* booked(api)
      const alone = yield* cancel(api, booking.reservations[0].reservation_id, {}, { key })
      expect(alone.status).toBe("cancelled")
      const missing = globalThis.crypto.randomUUID()
      yield* expectFailure(confirmBooking(api, missing, { payment_reference: "x" }, { key }), BookingNotFound)
      yield* expectFailure(cancelBooking(api, missing, {}, { key }), BookingNotFound)
      expectError(yield* api.post("/bookings/nope/cancel", {}, { key }), 404, "not_found", "booking_not_found")
      // Another property's booking is reported as a missing one.
      yield* expectFailure(cancelBooking(api, booking.booking_id), BookingNotFound)
      const rest = yield* cancelBooking(api, booking.booking_id).pipe(Effect.result)
      expect(rest._tag).toBe("Failure")
    }))
})
