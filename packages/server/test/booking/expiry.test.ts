import { expect, layer } from "@effect/vitest"
import { HoldExpired, NoAvailability, NotCancellable, RatePlanNotFound } from "@hotel/domain"
import type { ReservationStatus } from "@hotel/api/booking/Api"
import { HoldSweeper, HoldSweeperLive } from "@hotel/persistence/booking/HoldSweeper"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import {
  cancel,
  confirm,
  getReservation,
  hold,
  holdBody,
  importedHoldBody,
  importRoomTypes,
  lastSuite,
  newGuest
} from "../utils/booking.js"
import { expectFailure } from "../utils/client.js"
import { insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Hold expiry. The in-process server runs on the TestClock (no `excludeTestServices`), so the
// 15-minute window is crossed by moving the clock; HTTP still goes over real sockets.

const T0 = Date.parse("2031-06-01T10:00:00Z")
const minutes = (n: number) => n * 60_000

const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

interface StoredReservation {
  readonly status: string
  readonly cancellation_reason: string | null
  readonly cancelled_at: Date | null
  readonly hold_expires_at: Date | null
  readonly folio_status: string
  readonly leg_status: string
}

layer(TestApiLive)("hold expiry", (it) => {
  it.effect("at 14:59 the hold still holds the last room; at 15:00 it is free, reads say cancelled/hold_expired", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const guest = yield* newGuest(api)
      const suite = holdBody(api, guest, { ...lastSuite(api), check_in: "2031-07-10", check_out: "2031-07-12" })
      const first = yield* hold(api, suite)
      expect(first.hold_expires_at).toBe(new Date(T0 + minutes(15)).toISOString())

      yield* TestClock.setTime(T0 + minutes(15) - 1000)
      yield* expectFailure(hold(api, suite), NoAvailability)
      expect((yield* getReservation(api, first.reservation_id)).status).toBe("tentative")
      const calendar = yield* api.client.availability.availability({
        query: { start_date: "2031-07-10", end_date: "2031-07-11", room_type_id: suite.room_type_id }
      })
      expect(calendar.data[0].nights)
        .toEqual([expect.objectContaining({ available: 0 }), expect.objectContaining({ available: 0 })])

      yield* TestClock.setTime(T0 + minutes(15))
      const expired = yield* getReservation(api, first.reservation_id)
      expect(expired).toMatchObject({
        status: "cancelled",
        cancellation_reason: "hold_expired",
        folio_balance: "0.00",
        balances: [{ currency: "EUR", charges: "0.00", payments: "0.00", balance: "0.00" }]
      })
      expect(expired.accommodations.map((a) => a.status)).toEqual(["cancelled"])
      const listed = (status: typeof ReservationStatus.Type) =>
        Effect.map(api.client.reservationReads.list({ query: { status, guest_id: guest } }), (page) => page.data)
      expect(yield* listed("cancelled")).toEqual([expect.objectContaining({ id: first.reservation_id, status: "cancelled" })])
      expect(yield* listed("tentative")).toEqual([])
      // Confirm and cancel refuse the expired hold; the room is free for someone else.
      yield* expectFailure(confirm(api, first.reservation_id, { payment_reference: "pay-late" }), HoldExpired)
      yield* expectFailure(cancel(api, first.reservation_id), NotCancellable)
      const second = yield* hold(api, suite)
      expect(second.hold_expires_at).toBe(new Date(T0 + minutes(30)).toISOString())
      // Confirming the new hold one second before its deadline works.
      yield* TestClock.setTime(T0 + minutes(30) - 1000)
      yield* confirm(api, second.reservation_id)
    }))

  it.effect("an expired hold frees its promo code redemption", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const start = T0 + minutes(60)
      yield* TestClock.setTime(start)
      const plan = yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], {
        requires_promo_code: true,
        kind: "promotion"
      })
      yield* insertPromoCode(api.sql, api.property.property_id, plan, { code: "ONCE", max_redemptions: 1 })
      const body = (guest: string) =>
        holdBody(api, guest, { rate_plan_id: plan, promo_code: "once", check_in: "2031-07-20", check_out: "2031-07-22" })
      yield* hold(api, body(yield* newGuest(api)))
      yield* TestClock.setTime(start + minutes(1))
      const other = yield* newGuest(api)
      yield* expectFailure(hold(api, body(other)), RatePlanNotFound)
      yield* TestClock.setTime(start + minutes(15))
      yield* hold(api, body(other))
    }))

  it.effect("the sweeper writes expired holds down (cancelled, folio voided, leg cancelled) and leaves the rest", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const sweeper = yield* HoldSweeper
      const start = T0 + minutes(120)
      yield* TestClock.setTime(start)
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-08-04", check_out: "2031-08-05" }
      const old = yield* hold(api, holdBody(api, guest, stay))
      const kept = yield* hold(api, holdBody(api, guest, stay))
      yield* confirm(api, kept.reservation_id)
      yield* TestClock.setTime(start + minutes(10))
      const live = yield* hold(api, holdBody(api, guest, stay))
      yield* TestClock.setTime(start + minutes(15))

      const stored = (id: string) =>
        api.sql<StoredReservation>`
          SELECT r.status, r.cancellation_reason, r.cancelled_at, r.hold_expires_at, f.status AS folio_status,
                 a.status AS leg_status
          FROM reservations r JOIN folios f ON f.reservation_id = r.id JOIN accommodations a ON a.reservation_id = r.id
          WHERE r.id = ${id}`.pipe(Effect.orDie, Effect.map((rows) => rows[0]))
      expect((yield* stored(old.reservation_id)).status).toBe("tentative")
      expect(yield* sweeper.sweep()).toBeGreaterThanOrEqual(1)
      const swept = yield* stored(old.reservation_id)
      expect(swept).toMatchObject({
        status: "cancelled",
        cancellation_reason: "hold_expired",
        folio_status: "voided",
        leg_status: "cancelled"
      })
      expect(swept.cancelled_at?.toISOString()).toBe(swept.hold_expires_at?.toISOString())
      expect(yield* stored(live.reservation_id)).toMatchObject({ status: "tentative", folio_status: "open" })
      expect(yield* stored(kept.reservation_id)).toMatchObject({ status: "confirmed", folio_status: "open" })
      expect(yield* sweeper.sweep()).toBe(0)
      // Reads say the same before and after the sweep.
      expect(yield* getReservation(api, old.reservation_id)).toMatchObject({
        status: "cancelled",
        cancellation_reason: "hold_expired"
      })
      // A confirm after the sweep is still hold_expired (the client's cue to hold again), a cancel not_cancellable.
      yield* expectFailure(confirm(api, old.reservation_id, { payment_reference: "pay-swept" }), HoldExpired)
      yield* expectFailure(cancel(api, old.reservation_id), NotCancellable)
    }).pipe(Effect.provide(HoldSweeper.layer)))

  it.effect("sweepers running at once write each expired hold down exactly once", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const sweeper = yield* HoldSweeper
      const start = T0 + minutes(180)
      yield* TestClock.setTime(start)
      const { imported, key } = yield* importRoomTypes(api, { A: 40 })
      // One guest per hold: a guest may have at most 10 live holds.
      yield* Effect.forEach(Array.from({ length: 30 }, (_, i) => i), () =>
        Effect.flatMap(newGuest(api, imported.property_id), (guest) =>
          hold(api, importedHoldBody(imported, "A", guest, { check_in: "2031-08-10", check_out: "2031-08-11" }), { key })),
        { concurrency: 5 })
      yield* TestClock.setTime(start + minutes(16))
      const expiredNow = api.sql<{ n: number }>`
        SELECT count(*)::int AS n FROM reservations
        WHERE status = 'tentative' AND hold_expires_at <= ${new Date(start + minutes(16))}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
      const waiting = yield* expiredNow
      expect(waiting).toBeGreaterThanOrEqual(30)
      const counts = yield* Effect.all(Array.from({ length: 4 }, () => sweeper.sweep()), { concurrency: "unbounded" })
      expect(counts.reduce((a, b) => a + b, 0)).toBe(waiting)
      expect(yield* expiredNow).toBe(0)
      const [{ n }] = yield* api.sql<{ n: number }>`
        SELECT count(*)::int AS n FROM reservations
        WHERE property_id = ${imported.property_id} AND status = 'cancelled' AND cancellation_reason = 'hold_expired'`
        .pipe(Effect.orDie)
      expect(n).toBe(30)
    }).pipe(Effect.provide(HoldSweeper.layer)))

  it.effect("the server's background sweeper runs on its own", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const start = T0 + minutes(240)
      yield* TestClock.setTime(start)
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-08-18", check_out: "2031-08-19" }))
      yield* TestClock.setTime(start + minutes(15))
      const status = api.sql<{ status: string }>`SELECT status FROM reservations WHERE id = ${held.reservation_id}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows[0]?.status)
      )
      expect(yield* status).toBe("tentative")
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Layer.build(HoldSweeperLive)
        for (let i = 0; i < 100 && (yield* status) !== "cancelled"; i++) {
          yield* realSleep(50)
          yield* TestClock.adjust("5 seconds")
        }
      }))
      expect(yield* status).toBe("cancelled")
    }))
})
