// One workload measured: a warm-up of each side, then our server and its baseline in turn for the rounds,
// the oversell check after every hold run. See ./README.md ("Alternation", "Report").
import * as Effect from "effect/Effect"
import { adminQuery } from "./capture.js"
import type { KeySet } from "./keys.js"
import { type LoadResult, type Request, runLoad } from "./load.js"
import { type PgbenchResult, runPgbench } from "./pgbench.js"
import type { Running } from "./processes.js"
import type { Side } from "./stats.js"

export interface Measuring {
  readonly workload: string
  readonly url: string
  readonly keys: KeySet
  readonly ours: Running
  /** The plain server for reads; unused for holds, measured by pgbench with `holdScript`. */
  readonly baseline: Running
  readonly holdScript: string | undefined
  readonly pgbench: string
  readonly pgbenchMode: "extended" | "prepared"
  readonly next: () => Request
  readonly rounds: number
  readonly duration: number
  /** Seconds of load on each side before the rounds, not counted. */
  readonly warmup: number
  readonly connections: number
}

export interface Measured {
  readonly ours: Side
  readonly baseline: Side
  readonly problems: ReadonlyArray<string>
}

/** Nights where live holds, confirmed and checked-in reservations outnumber the rooms in service. */
const oversoldNights = (url: string) =>
  Effect.runPromise(adminQuery<{ code: string; night: string; taken: number; rooms: number }>(url, `
    SELECT rt.code, to_char(n, 'YYYY-MM-DD') AS night, count(*)::int AS taken,
           (SELECT count(*) FROM rooms r WHERE r.room_type_id = rt.id AND NOT r.retired)::int AS rooms
    FROM reservations res
    JOIN room_types rt ON rt.id = res.room_type_id
    CROSS JOIN LATERAL generate_series(res.check_in_date, res.check_out_date - 1, interval '1 day') AS n
    WHERE res.status IN ('confirmed', 'checked_in') OR (res.status = 'tentative' AND res.hold_expires_at > $1)
    GROUP BY rt.id, rt.code, n
    HAVING count(*) > (SELECT count(*) FROM rooms r WHERE r.room_type_id = rt.id AND NOT r.retired)`, [new Date()]))

const clearReservations = (url: string) =>
  Effect.runPromise(adminQuery(url, "TRUNCATE reservations CASCADE"))

export const measure = async (m: Measuring): Promise<Measured> => {
  const holds = m.holdScript !== undefined
  const problems: Array<string> = []
  const ours: Side = { throughput: [], latencies: [], cpuPerRequest: [] }
  const baseline: Side = { throughput: [], latencies: [], cpuPerRequest: [] }
  const load = (baseUrl: string, seconds: number) =>
    runLoad({ baseUrl, keys: m.keys, connections: m.connections, seconds, next: m.next })

  /** A load on a server, with the CPU the server spent per request answered. */
  const onServer = async (server: Running, seconds: number): Promise<LoadResult & { readonly cpuPerRequest?: number }> => {
    const cpuBefore = server.cpuMillis()
    const result = await load(server.baseUrl, seconds)
    const cpuAfter = server.cpuMillis()
    return cpuBefore !== undefined && cpuAfter !== undefined && result.requests > 0
      ? { ...result, cpuPerRequest: (cpuAfter - cpuBefore) / result.requests }
      : result
  }
  const runOurs = async (seconds: number) => {
    if (holds) await clearReservations(m.url)
    const result = await onServer(m.ours, seconds)
    const unexpected = Object.keys(result.statuses).filter((s) => !["200", "201", "409"].includes(s))
    if (unexpected.length > 0) problems.push(`${m.workload} ours: statuses ${JSON.stringify(result.statuses)}`)
    return result
  }
  const runBase = async (seconds: number): Promise<(LoadResult & { readonly cpuPerRequest?: number }) | PgbenchResult> => {
    if (m.holdScript === undefined) return onServer(m.baseline, seconds)
    await clearReservations(m.url)
    const result = await runPgbench(m.pgbench, m.url, m.holdScript, m.connections, seconds, m.pgbenchMode)
    if (result.failed > 0) problems.push(`${m.workload} pgbench: ${result.failed} failed transactions`)
    return result
  }
  const checkOversold = async (side: string) => {
    if (!holds) return
    const oversold = await oversoldNights(m.url)
    if (oversold.length > 0) problems.push(`${m.workload} ${side} OVERSOLD: ${JSON.stringify(oversold.slice(0, 5))}`)
  }

  await runOurs(m.warmup) // warm-up (JIT, pool, prepared statements, caches), not counted
  await runBase(m.warmup)
  for (let r = 0; r < m.rounds; r++) {
    const a = await runOurs(m.duration)
    if (a.cpuPerRequest !== undefined) ours.cpuPerRequest.push(a.cpuPerRequest)
    ours.throughput.push(a.throughput)
    ours.latencies.push(...a.latencies)
    await checkOversold("ours")
    const b = await runBase(m.duration)
    if ("cpuPerRequest" in b && b.cpuPerRequest !== undefined) baseline.cpuPerRequest.push(b.cpuPerRequest)
    baseline.throughput.push(b.throughput)
    baseline.latencies.push(...b.latencies)
    await checkOversold("pgbench")
    console.log(`${m.workload} round ${r + 1}: ours ${a.throughput.toFixed(0)}/s ${JSON.stringify(a.statuses)}, baseline ${b.throughput.toFixed(0)}/s`)
  }
  return { ours, baseline, problems }
}
