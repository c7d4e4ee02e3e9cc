import type * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"

// Helpers of the race tests: real concurrent HTTP requests through the typed client, each ending as its success
// status or its decoded error class, and the invariant every race keeps (no night sold beyond its rooms).

export type Outcome<A> = Result.Result<readonly [A, { readonly status: number }], { readonly _tag: string }>

/** How the calls ended: a success by its status (`"201"`), a failure by its error class (`"NoAvailability"`). */
export const outcomes = <A>(results: ReadonlyArray<Outcome<A>>) => {
  const tally: Record<string, number> = {}
  for (const result of results) {
    const label = Result.isSuccess(result) ? String(result.success[1].status) : result.failure._tag
    tally[label] = (tally[label] ?? 0) + 1
  }
  return tally
}

/** The successes' values, in call order. */
export const successes = <A>(results: ReadonlyArray<Outcome<A>>) =>
  results.flatMap((result) => (Result.isSuccess(result) ? [result.success[0]] : []))

/** Every night of every room type of a property: rooms taken (live holds, confirmed, checked in) never above rooms. */
export const overbookedNights = (sql: SqlClient.SqlClient, propertyId: string, now: Date) =>
  sql<{ room_type_id: string; night: string; taken: number; rooms: number }>`
    WITH nights AS (
      SELECT r.room_type_id, d::date AS night
      FROM reservations r, generate_series(r.check_in_date, r.check_out_date - 1, interval '1 day') AS d
      WHERE r.property_id = ${propertyId}
        AND (r.status IN ('confirmed', 'checked_in') OR (r.status = 'tentative' AND r.hold_expires_at > ${now}))
    )
    SELECT n.room_type_id, to_char(n.night, 'YYYY-MM-DD') AS night, count(*)::int AS taken,
           (SELECT count(*) FROM rooms WHERE room_type_id = n.room_type_id AND NOT retired)::int AS rooms
    FROM nights n GROUP BY n.room_type_id, n.night
    HAVING count(*) > (SELECT count(*) FROM rooms WHERE room_type_id = n.room_type_id AND NOT retired)`.pipe(
    Effect.orDie
  )

/** Every call in flight at once; each one's result, success or failure. */
export const all = <A, E, R>(calls: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(calls.map((call) => Effect.result(call)), { concurrency: "unbounded" })

/** Every call in flight at once; how each ended: `"ok"`, or the error class's tag (for calls of mixed kinds). */
export const race = (calls: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>>) =>
  Effect.map(
    Effect.all(calls.map((call) => Effect.result(call)), { concurrency: "unbounded" }),
    (results) => results.map((result) => Result.isSuccess(result) ? "ok" : result.failure._tag)
  )

/** How many times each label occurs. */
export const tally = (labels: ReadonlyArray<string>) => {
  const counts: Record<string, number> = {}
  for (const label of labels) counts[label] = (counts[label] ?? 0) + 1
  return counts
}
