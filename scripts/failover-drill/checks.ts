// What must hold after the primary died under load, checked on the answers and with SQL on the new primary.
import pg from "pg"
import { type Answer, type LoadResult, standbyReads } from "./load.js"

export interface CheckResult {
  readonly name: string
  readonly ok: boolean
  readonly figures: Record<string, unknown>
}

/** The limit the issue sets: writes served again within 30 s of the primary's death. */
export const windowLimitMs = 30_000

const writes = new Set(["guest", "hold", "confirm"])

const isOk = (answer: Answer) => answer.status >= 200 && answer.status < 300

const outcomes = (answers: ReadonlyArray<Answer>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const answer of answers) {
    const label = `${answer.status}${answer.code === undefined ? "" : ` ${answer.code}`}`
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

/** The first write sent after the kill that was answered 2xx: the end of the window. */
export const firstWriteAfter = (answers: ReadonlyArray<Answer>, killAt: number): Answer | undefined =>
  answers.filter((a) => writes.has(a.kind) && a.sentAt >= killAt && isOk(a)).sort((a, b) => a.answeredAt - b.answeredAt)[0]

export const window = (load: LoadResult, killAt: number): CheckResult => {
  const first = firstWriteAfter(load.answers, killAt)
  const ms = first === undefined ? undefined : first.answeredAt - killAt
  // How long a request waited for its answer while no primary answered (a 503 must come at once).
  const end = first?.answeredAt ?? Number.POSITIVE_INFINITY
  const waits = load.answers.filter((a) => a.answeredAt >= killAt && a.sentAt < end).map((a) => a.answeredAt - a.sentAt)
  return {
    name: "writes served again",
    ok: ms !== undefined && ms <= windowLimitMs,
    figures: {
      kill_to_first_2xx_write_s: ms === undefined ? null : Number((ms / 1000).toFixed(2)),
      limit_s: windowLimitMs / 1000,
      longest_wait_in_window_ms: waits.length === 0 ? null : Math.max(...waits)
    }
  }
}

export const no500 = (load: LoadResult): CheckResult => {
  const wrong = load.answers.filter((a) => a.status === 0 || (a.status >= 500 && !(a.status === 503 && a.code === "database_busy")))
  return {
    name: "no 500",
    ok: wrong.length === 0,
    figures: { requests: load.answers.length, outcomes: outcomes(load.answers), unexpected: outcomes(wrong) }
  }
}

/** The share of the standby's reads sent while no primary answered that must be answered 2xx. */
export const readsServedMinimum = 0.9

/**
 * The reads a standby serves (quotes, availability, the catalogue, rate plans) sent while no write could be
 * (from the kill to the first write answered 2xx): at least `readsServedMinimum` of them answered 2xx, and some
 * sent at all.
 */
export const readsInWindow = (load: LoadResult, killAt: number): CheckResult => {
  const end = firstWriteAfter(load.answers, killAt)?.answeredAt ?? Number.POSITIVE_INFINITY
  const during = load.answers.filter((a) => standbyReads.has(a.kind) && a.sentAt >= killAt && a.sentAt < end)
  const served = during.filter(isOk).length
  const share = during.length === 0 ? 0 : served / during.length
  return {
    name: "reads during the window",
    ok: during.length > 0 && share >= readsServedMinimum,
    figures: {
      requests: during.length,
      answered_2xx: served,
      share: Number(share.toFixed(3)),
      minimum: readsServedMinimum,
      outcomes: outcomes(during)
    }
  }
}

/** Every confirm and hold answered 2xx is on the new primary; no night holds more than its rooms. */
export const onNewPrimary = async (port: number, load: LoadResult, killAt: number): Promise<ReadonlyArray<CheckResult>> => {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "hotel" })
  await client.connect()
  try {
    const ids = load.confirmed.map((c) => c.reservationId)
    const confirmed = (await client.query<{ id: string; status: string; paid: boolean; payments: number }>(
      `SELECT r.id, r.status,
         EXISTS (SELECT 1 FROM payments p WHERE p.reservation_id = r.id AND p.reference = ANY($2)) AS paid,
         (SELECT count(*) FROM payments p WHERE p.reservation_id = r.id)::int AS payments
       FROM reservations r WHERE r.id = ANY($1::uuid[])`,
      [ids, load.confirmed.map((c) => c.paymentReference)]
    )).rows
    const kept = confirmed.filter((row) => row.status === "confirmed" && row.paid).length
    // A confirm retried with its key after a 503 must have been done once: one payment each.
    const twice = confirmed.filter((row) => row.payments !== 1).length
    const holds = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM reservations WHERE id = ANY($1::uuid[])", [load.held])).rows
    const oversold = (await client.query<{ room_type: string; night: string; taken: number; rooms: number }>(`
      WITH taken AS (
        SELECT r.room_type_id, d::date AS night, count(*)::int AS taken
        FROM reservations r, generate_series(r.check_in_date, r.check_out_date - 1, interval '1 day') d
        WHERE r.status IN ('confirmed', 'checked_in') OR (r.status = 'tentative' AND r.hold_expires_at > now())
        GROUP BY 1, 2
      ), rooms AS (
        SELECT room_type_id, count(*)::int AS rooms FROM rooms WHERE NOT retired GROUP BY 1
      )
      SELECT t.room_type_id::text AS room_type, t.night::text, t.taken, COALESCE(r.rooms, 0) AS rooms
      FROM taken t LEFT JOIN rooms r USING (room_type_id) WHERE t.taken > COALESCE(r.rooms, 0)`)).rows
    const [sold] = (await client.query<{ nights: number }>(`
      SELECT count(*)::int AS nights FROM reservations r, generate_series(r.check_in_date, r.check_out_date - 1, interval '1 day') d
      WHERE r.status = 'confirmed'`)).rows
    return [
      {
        name: "confirms kept",
        ok: kept === ids.length && twice === 0,
        figures: {
          confirmed_2xx: ids.length,
          before_the_kill: load.confirmed.filter((c) => c.answeredAt < killAt).length,
          in_its_last_second: load.confirmed.filter((c) => c.answeredAt < killAt && c.answeredAt >= killAt - 1000).length,
          on_new_primary: kept,
          paid_more_than_once: twice
        }
      },
      {
        name: "holds kept",
        ok: (holds[0]?.n ?? 0) === load.held.length,
        figures: { held_2xx: load.held.length, on_new_primary: holds[0]?.n ?? 0 }
      },
      {
        name: "no night oversold",
        ok: oversold.length === 0,
        figures: { confirmed_room_nights: sold?.nights ?? 0, oversold_nights: oversold.length, ...(oversold.length > 0 ? { first: oversold[0] } : {}) }
      }
    ]
  } finally {
    await client.end()
  }
}
