import * as SqlClient from "effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Booking } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { expiredHold, liveHold } from "../../src/booking/HoldWindow.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// One definition of an expired and a live hold: the domain predicates and the SQL fragments every query uses
// must answer alike for every stored state, the missing deadline (NULL) included.
const now = new Date("2030-05-01T12:00:00.000Z")
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs)

const cases: ReadonlyArray<{ readonly status: string; readonly holdExpiresAt: Date | null }> = [
  "tentative",
  "confirmed",
  "cancelled",
  "checked_in",
  "checked_out",
  "no_show"
].flatMap((status) =>
  [null, at(-60_000), at(-1), at(0), at(1), at(60_000)].map((holdExpiresAt) => ({ status, holdExpiresAt }))
)

describe("hold window", () => {
  layer(TestDatabase.layer())((it) => {
    it.effect("the SQL fragments and the domain predicates agree on every case", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        for (const facts of cases) {
          const [row] = yield* sql<{ expired: boolean; live: boolean }>`
            SELECT ${expiredHold(sql, "r", now)} AS expired, ${liveHold(sql, "r", now)} AS live
            FROM (VALUES (${facts.status}, ${facts.holdExpiresAt}::timestamptz)) AS r (status, hold_expires_at)`
          const expected = { expired: Booking.isExpiredHold(facts, now), live: Booking.isLiveHold(facts, now) }
          expect({ facts, ...row }).toEqual({ facts, ...expected })
          // A tentative reservation is exactly one of the two; anything else is neither.
          expect(expected.expired || expected.live).toBe(facts.status === "tentative")
          expect(expected.expired && expected.live).toBe(false)
        }
      }))
  })
})
