import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { hold, holdBody, newGuest, postConfirm } from "../utils/booking.js"
import type { ErrorBody } from "../utils/http.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// A confirm racing a cancel of the same fresh hold (the cancel owes a refund of what was paid, at
// the policy's percentage). Both take the reservation row lock; whichever comes second must see what the first
// committed. Every race ends one of two ways: cancelled first (the confirm is refused, nothing was paid, nothing
// is owed), or confirmed first and then cancelled with the payment refunded (stays in 2031, more than 7 days
// away: 100%). Never a payment kept on a cancelled folio with no refund owed.

const races = 30

/** Payments less refunds, and refunds, on a folio, in minor units (EUR). */
const folioMoney = (api: TestApi["Service"], folioId: string) =>
  api.sql<{ paid: number; refunded: number; fee: number }>`
    SELECT COALESCE(round(sum(amount) FILTER (WHERE kind = 'payment') * 100), 0)::int AS paid,
           COALESCE(round(sum(amount) FILTER (WHERE kind = 'refund') * 100), 0)::int AS refunded,
           COALESCE(round(sum(amount) FILTER (WHERE kind = 'cancellation_fee') * 100), 0)::int AS fee
    FROM folio_lines WHERE folio_id = ${folioId}`.pipe(Effect.orDie, Effect.map((rows) => rows[0]))

layer(TestApiLive, { excludeTestServices: true })("faults: confirm racing cancel", (it) => {
  it.effect(`${races} races of confirm and cancel on a fresh hold: the refund always matches the payment`, () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const endings: Record<string, number> = {}
      for (let i = 0; i < races; i++) {
        const guest = yield* newGuest(api)
        // One week per race, so each hold finds a free room.
        const day = new Date(Date.UTC(2031, 0, 5 + 7 * i)).toISOString().slice(0, 10)
        const next = new Date(Date.UTC(2031, 0, 7 + 7 * i)).toISOString().slice(0, 10)
        const held = yield* hold(api, holdBody(api, guest, { check_in: day, check_out: next }))
        const [confirmed, [{ refund_due_minor: refundDue }, cancelled]] = yield* Effect.all([
          postConfirm(api, held.reservation_id, { payment_reference: `race_${i}_${held.reservation_id}` }),
          api.client.reservationActions.cancel({ headers: {}, params: { id: held.reservation_id }, payload: {}, responseMode: "decoded-and-response" })
        ], { concurrency: "unbounded" })

        expect(cancelled.status).toBe(200)
        const money = yield* folioMoney(api, held.folio_id)
        const [row] = yield* api.sql<{ status: string }>`
          SELECT status FROM reservations WHERE id = ${held.reservation_id}`.pipe(Effect.orDie)
        expect(row.status).toBe("cancelled")
        if (confirmed.status === 200) {
          // Confirmed first, then cancelled: the whole payment is owed back (100% tier).
          const totalMinor = Math.round(Number(held.total) * 100)
          expect(money, `race ${i}`).toEqual({ paid: totalMinor, refunded: totalMinor, fee: 0 })
          expect(refundDue, `race ${i}`).toBe(totalMinor)
          endings["confirmed, then cancelled with refund"] = (endings["confirmed, then cancelled with refund"] ?? 0) + 1
        } else {
          // Cancelled first: the confirm is refused and nothing was paid or is owed.
          expect(confirmed.status, confirmed.text).toBe(409)
          expect(confirmed.json<ErrorBody>().error.code).toBe("not_confirmable")
          expect(money, `race ${i}`).toEqual({ paid: 0, refunded: 0, fee: 0 })
          expect(refundDue, `race ${i}`).toBe(0)
          endings["cancelled, confirm refused"] = (endings["cancelled, confirm refused"] ?? 0) + 1
        }
      }
      expect(Object.values(endings).reduce((a, b) => a + b, 0)).toBe(races)
    }), { timeout: 120_000 })
})
