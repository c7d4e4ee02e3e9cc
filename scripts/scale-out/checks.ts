// The guarantees that must hold across API processes, checked through the proxy (so concurrent requests land
// on different processes) and with SQL on the shared database.
import { type Client, concurrently, outcomes } from "./client.js"

export interface Demo {
  readonly api: Client
  readonly propertyId: string
  readonly roomTypes: Record<string, string>
  readonly ratePlans: Record<string, string>
  /** A new API key with every scope (its own rate-limit bucket). */
  readonly newKey: () => Promise<string>
}

export interface CheckResult {
  readonly name: string
  readonly ok: boolean
  readonly figures: Record<string, unknown>
}

const newGuest = async (demo: Demo, key: string): Promise<string> => {
  const res = await demo.api.send("POST", "/guests", key, {
    first_name: "Scale",
    last_name: "Out",
    email: `scale-${globalThis.crypto.randomUUID()}@example.com`
  })
  if (res.status !== 201) throw new Error(`POST /guests: ${res.status} ${res.text}`)
  return (JSON.parse(res.text) as { guest_id: string }).guest_id
}

const holdBody = (demo: Demo, roomType: string, guestId: string, checkIn: string, checkOut: string) => ({
  room_type_id: demo.roomTypes[roomType],
  rate_plan_id: demo.ratePlans[`BAR-${roomType}`],
  check_in: checkIn,
  check_out: checkOut,
  guest_id: guestId,
  adults: 2
})

/** N concurrent holds on the suites (2 rooms): exactly 2 succeed, and no night is sold beyond its rooms. */
export const holds = async (demo: Demo, n: number): Promise<CheckResult> => {
  const key = await demo.newKey()
  const guest = await newGuest(demo, key)
  const answers = await concurrently(n, () =>
    demo.api.send("POST", "/holds", key, holdBody(demo, "STE", guest, "2031-05-10", "2031-05-13")))
  const [rooms] = await demo.api.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM rooms WHERE room_type_id = $1 AND NOT retired", [demo.roomTypes["STE"]])
  const oversold = await demo.api.query<{ night: string; taken: number }>(`
    WITH nights AS (
      SELECT d::date AS night FROM reservations r, generate_series(r.check_in_date, r.check_out_date - 1, interval '1 day') d
      WHERE r.room_type_id = $1 AND (r.status IN ('confirmed', 'checked_in') OR (r.status = 'tentative' AND r.hold_expires_at > now()))
    )
    SELECT night::text, count(*)::int AS taken FROM nights GROUP BY night HAVING count(*) > $2`,
    [demo.roomTypes["STE"], rooms?.n ?? 0])
  const seen = outcomes(answers)
  return {
    name: "holds",
    ok: seen["201"] === rooms?.n && seen["409 no_availability"] === n - (rooms?.n ?? 0) && oversold.length === 0,
    figures: { requests: n, rooms: rooms?.n, outcomes: seen, oversold_nights: oversold.length }
  }
}

/** One hold confirmed N times at once (same payment): one confirmation, one payment row. */
export const confirms = async (demo: Demo, n: number): Promise<CheckResult> => {
  const key = await demo.newKey()
  const guest = await newGuest(demo, key)
  const held = await demo.api.send("POST", "/holds", key, holdBody(demo, "DBL", guest, "2031-06-10", "2031-06-12"))
  if (held.status !== 201) throw new Error(`POST /holds: ${held.status} ${held.text}`)
  const { folio_id, reservation_id } = JSON.parse(held.text) as { reservation_id: string; folio_id: string }
  const payment = { payment_reference: `pay_${globalThis.crypto.randomUUID()}` }
  const answers = await concurrently(n, () => demo.api.send("POST", `/holds/${reservation_id}/confirm`, key, payment))
  const firsts = answers.filter((a) => a.status === 200 && !(JSON.parse(a.text) as { already_confirmed: boolean }).already_confirmed)
  const [paid] = await demo.api.query<{ n: number }>("SELECT count(*)::int AS n FROM payments WHERE folio_id = $1", [folio_id])
  const [status] = await demo.api.query<{ status: string }>("SELECT status FROM reservations WHERE id = $1", [reservation_id])
  const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 409)
  return {
    name: "confirms",
    ok: firsts.length === 1 && paid?.n === 1 && status?.status === "confirmed" && unexpected.length === 0,
    figures: { requests: n, outcomes: outcomes(answers), first_confirmations: firsts.length, payments: paid?.n }
  }
}

/** One Idempotency-Key sent N times at once: one reservation; every completed answer identical. */
export const idempotency = async (demo: Demo, n: number): Promise<CheckResult> => {
  const key = await demo.newKey()
  const guest = await newGuest(demo, key)
  const body = holdBody(demo, "DBL", guest, "2031-07-10", "2031-07-12")
  const headers = { "Idempotency-Key": `scale-out-${globalThis.crypto.randomUUID()}` }
  const answers = await concurrently(n, () => demo.api.send("POST", "/holds", key, body, headers))
  // A replay afterwards, by whichever process the proxy picks.
  const replays = await concurrently(3, () => demo.api.send("POST", "/holds", key, body, headers))
  const completed = [...answers, ...replays].filter((a) => a.status === 201)
  const original = completed[0]?.text
  const identical = completed.every((a) => a.text === original)
  const others = answers.filter((a) => a.status !== 201)
  const allInProgress = others.every((a) => a.status === 409 && a.text.includes("idempotency_in_progress"))
  const replayedHeader = replays.every((a) => a.headers.get("idempotent-replayed") === "true")
  const [made] = await demo.api.query<{ n: number }>("SELECT count(*)::int AS n FROM reservations WHERE guest_id = $1", [guest])
  return {
    name: "idempotency",
    ok: made?.n === 1 && identical && allInProgress && replayedHeader && completed.length >= 4,
    figures: { requests: n, outcomes: outcomes(answers), reservations: made?.n, replays_identical: identical }
  }
}

/** One key's budget shared by the processes: 200s over a burst ≤ the limit + the refill meanwhile + 1. */
export const rateLimits = async (demo: Demo, n: number, batch: number): Promise<CheckResult> => {
  const key = await demo.newKey()
  const started = performance.now()
  const answers = []
  let limit = 0
  for (let sent = 0; sent < n; sent += batch) {
    const batchAnswers = await concurrently(Math.min(batch, n - sent), () => demo.api.send("GET", "/me", key))
    answers.push(...batchAnswers)
    limit = Math.max(limit, ...batchAnswers.map((a) => Number(a.headers.get("x-ratelimit-limit") ?? 0)))
  }
  const seconds = (performance.now() - started) / 1000
  const passed = answers.filter((a) => a.status === 200).length
  // The bucket refills continuously: `limit` tokens per minute.
  const allowed = limit + Math.ceil((seconds * limit) / 60) + 1
  const seen = outcomes(answers)
  return {
    name: "rate limits",
    ok: passed >= limit && passed <= allowed && passed + (seen["429 rate_limited"] ?? 0) === n,
    figures: { requests: n, limit, seconds: Number(seconds.toFixed(2)), passed, allowed_at_most: allowed, outcomes: seen }
  }
}
