import { expect, layer } from "@effect/vitest"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { race, tally } from "../utils/concurrency.js"
import { importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { blockBody, createBlock, getBlock } from "../utils/blocks.js"
import type { HotelClient } from "../utils/client.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// Blocks under REAL concurrent HTTP requests against Postgres: pickups never take more than a block's units, and
// a definite block (created, confirmed or raised) racing holds for the last rooms never oversells a night. Each
// call ends as "ok" or its decoded error class.

const stay = { check_in: "2031-09-01", check_out: "2031-09-03" }
const range = { start_date: "2031-09-01", end_date: "2031-09-03" }

/** Nights where live reservations plus the definite blocks' remaining units exceed the rooms. */
const oversold = (api: TestApiService, imported: PropertyImportResult) =>
  api.sql<{ night: string }>`
    WITH nights AS (SELECT d::date AS night FROM generate_series(${stay.check_in}::date, ${stay.check_out}::date - 1, interval '1 day') d),
    taken AS (
      SELECT n.night, count(r.id)::int AS taken FROM nights n LEFT JOIN reservations r
        ON r.property_id = ${imported.property_id} AND r.check_in_date <= n.night AND n.night < r.check_out_date
       AND (r.status IN ('confirmed', 'checked_in') OR (r.status = 'tentative' AND r.hold_expires_at > now()))
      GROUP BY n.night
    ),
    held AS (
      SELECT bn.night, sum(GREATEST(0, bn.units - (SELECT count(*) FROM reservations r WHERE r.block_id = b.id
        AND r.check_in_date <= bn.night AND bn.night < r.check_out_date
        AND (r.status IN ('confirmed', 'checked_in') OR (r.status = 'tentative' AND r.hold_expires_at > now())))))::int AS blocked
      FROM blocks b JOIN block_nights bn ON bn.block_id = b.id
      WHERE b.property_id = ${imported.property_id} AND b.status = 'definite' GROUP BY bn.night
    )
    SELECT to_char(t.night, 'YYYY-MM-DD') AS night FROM taken t LEFT JOIN held h ON h.night = t.night
    WHERE t.taken + COALESCE(h.blocked, 0) >
      (SELECT count(*) FROM rooms WHERE room_type_id = ${imported.room_types.A} AND NOT retired)`.pipe(Effect.orDie)

const holdsFor = (api: TestApiService, client: HotelClient, imported: PropertyImportResult, count: number, over = {}) =>
  Effect.gen(function*() {
    const guests = yield* Effect.forEach(Array.from({ length: count }), () => newGuest(api, imported.property_id))
    return guests.map((guest) => client.holds.create({ headers: {}, payload: { ...importedHoldBody(imported, "A", guest, stay), ...over } }))
  })

layer(TestApiLive, { excludeTestServices: true })("blocks under concurrency", (it) => {
  it.effect("10 concurrent pickups on a 3-unit block of a full room type: exactly 3 win", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const client = yield* api.clientFor(key)
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 3, status: "definite" }), { key })
      const pickups = yield* holdsFor(api, client, imported, 10, { block_id: blockId })
      expect(tally(yield* race(pickups))).toEqual({ ok: 3, NoAvailability: 7 })
      const block = yield* getBlock(api, blockId, { key })
      expect(block.nights.map((night) => [night.picked_up, night.remaining])).toEqual([[3, 0], [3, 0]])
      expect(yield* oversold(api, imported)).toEqual([])
    }))

  it.effect("a definite block created against holds for the last rooms: never oversold", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 4 })
      const client = yield* api.clientFor(key)
      const holds = yield* holdsFor(api, client, imported, 4)
      const block = client.blocks.create({ headers: {}, payload: blockBody(imported, "A", { ...range, units: 2, status: "definite" }) })
      const outcomes = yield* race([block, ...holds])
      const won = tally(outcomes)
      expect(won.ok === 4 || won.ok === 3, JSON.stringify(outcomes)).toBe(true)
      expect(yield* oversold(api, imported)).toEqual([])
    }))

  it.effect("confirming and raising definite blocks against holds for the last rooms: never oversold", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 4 })
      const client = yield* api.clientFor(key)
      const tentative = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2 }), { key })
      const definite = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 1, status: "definite" }), { key })
      const holds = yield* holdsFor(api, client, imported, 3)
      const outcomes = yield* race([
        client.blocks.confirm({ params: { id: tentative }, headers: {} }),
        client.blocks.update({ params: { id: definite }, payload: { units: 2 }, headers: {} }),
        ...holds
      ])
      expect(outcomes.filter((outcome) => outcome !== "ok").every((outcome) => outcome === "NoAvailability")).toBe(true)
      expect(yield* oversold(api, imported)).toEqual([])
    }))
})
