// One workload measured: a warm-up of each side, then our server and its baselines in turn for the rounds
// (A/B/A/B..., or A/B/C with two baselines), the oversell check after every hold run. See ./README.md
// ("Alternation", "Report").
import * as Effect from "effect/Effect"
import { adminQuery } from "./capture.js"
import { PGBENCH } from "./goals.js"
import type { PgbenchScript } from "./pgbench.js"
import { runPgbench } from "./pgbenchRun.js"
import type { Running } from "./processes.js"
import type { Run } from "./stats.js"
import { runWrk } from "./wrk.js"

export type Baseline =
  /** `script`: a wrk script of its own (our server on another request), else the workload's. */
  | { readonly name: string; readonly kind: "server"; readonly server: Running; readonly script?: string }
  | { readonly name: string; readonly kind: "pgbench"; readonly script: PgbenchScript }

export interface Measuring {
  readonly workload: string
  readonly url: string
  readonly ours: Running
  readonly baselines: ReadonlyArray<Baseline>
  /** Hold runs start from an empty reservation table and are followed by the oversell check. */
  readonly holds: boolean
  readonly wrk: { readonly path: string; readonly script: string; readonly threads: number; readonly connections: number }
  readonly pgbench: { readonly path: string; readonly mode: "extended" | "prepared"; readonly sessions: number }
  readonly rounds: number
  readonly duration: number
  /** Seconds of load on each side before the rounds, not counted. */
  readonly warmup: number
}

export interface Measured {
  readonly ours: ReadonlyArray<Run>
  readonly baselines: ReadonlyArray<{ readonly name: string; readonly runs: ReadonlyArray<Run> }>
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

const clearReservations = (url: string) => Effect.runPromise(adminQuery(url, "TRUNCATE reservations CASCADE"))

const ms = (n: number | undefined) => (n === undefined ? "n/a" : n.toFixed(3))

export const measure = async (m: Measuring): Promise<Measured> => {
  const problems: Array<string> = []
  const note = (line: string) => problems.push(`${m.workload} ${line}`)

  /** wrk on a server, with the CPU the server's processes spent per request answered. */
  const onServer = async (side: string, server: Running, seconds: number, expected: ReadonlyArray<string>, script = m.wrk.script) => {
    const cpuBefore = server.cpuMillis()
    const result = await runWrk({ ...m.wrk, script, wrk: m.wrk.path, baseUrl: server.baseUrl, seconds })
    const cpuAfter = server.cpuMillis()
    const unexpected = Object.keys(result.statuses).filter((status) => !expected.includes(status))
    if (unexpected.length > 0) note(`${side}: statuses ${JSON.stringify(result.statuses)}`)
    if (result.socketErrors > 0) note(`${side}: ${result.socketErrors} socket errors or timeouts`)
    const cpuPerRequest = cpuBefore !== undefined && cpuAfter !== undefined && result.requests > 0
      ? (cpuAfter - cpuBefore) / result.requests
      : undefined
    const run: Run = { throughput: result.throughput, p50Ms: result.p50Ms, p99Ms: result.p99Ms, cpuPerRequest }
    return { run, line: `${side} ${result.throughput.toFixed(0)}/s ${JSON.stringify(result.statuses)} (wrk CPU ${ms(result.loadCpuPerRequest)} ms/req, server ${ms(cpuPerRequest)})` }
  }

  const checkOversold = async (side: string) => {
    if (!m.holds) return
    const oversold = await oversoldNights(m.url)
    if (oversold.length > 0) note(`${side} OVERSOLD: ${JSON.stringify(oversold.slice(0, 5))}`)
  }

  const runOurs = async (seconds: number) => {
    if (m.holds) await clearReservations(m.url)
    const result = await onServer("ours", m.ours, seconds, ["200", "201", "409"])
    await checkOversold("ours")
    return result
  }

  const runBaseline = async (baseline: Baseline, seconds: number) => {
    if (m.holds) await clearReservations(m.url)
    if (baseline.kind === "server") {
      const result = await onServer(baseline.name, baseline.server, seconds, m.holds ? ["201", "409"] : ["200"], baseline.script)
      await checkOversold(baseline.name)
      return result
    }
    const result = await runPgbench(m.pgbench.path, m.url, baseline.script, m.pgbench.sessions, seconds, m.pgbench.mode)
    if (result.failed > 0) note(`${PGBENCH}: ${result.failed} failed transactions`)
    await checkOversold(baseline.name)
    const run: Run = { throughput: result.throughput, p50Ms: result.p50Ms, p99Ms: result.p99Ms, cpuPerRequest: undefined }
    return { run, line: `${baseline.name} ${result.throughput.toFixed(0)}/s (its client's CPU ${ms(result.loadCpuPerRequest)} ms/transaction)` }
  }

  // Warm-up (JIT, pools, prepared statements, caches), not counted.
  await runOurs(m.warmup)
  for (const baseline of m.baselines) await runBaseline(baseline, m.warmup)

  const ours: Array<Run> = []
  const baselines = m.baselines.map((baseline) => ({ name: baseline.name, runs: [] as Array<Run> }))
  for (let r = 0; r < m.rounds; r++) {
    const a = await runOurs(m.duration)
    ours.push(a.run)
    const lines = [a.line]
    for (const [i, baseline] of m.baselines.entries()) {
      const b = await runBaseline(baseline, m.duration)
      baselines[i]?.runs.push(b.run)
      lines.push(b.line)
    }
    console.log(`${m.workload} round ${r + 1}: ${lines.join("; ")}`)
  }
  return { ours, baselines, problems }
}
