// What the soak watches while it runs, sampled every few seconds and summed up per minute: the answers and
// their latency (from the load), the server's resident memory (Linux's /proc), its database pool (its own
// `/metrics` on METRICS_PORT) and connections left idle in a transaction (Postgres's `pg_stat_activity`).
import pg from "pg"
import { percentile } from "../bench/stats.js"

export interface Minute {
  readonly minute: number
  readonly requests: number
  readonly ok: number
  /** 4xx answers: 409s are the business's refusals (a full night, an expired hold), the rest mistakes. */
  readonly conflicts: number
  readonly otherClientErrors: number
  readonly serverErrors: number
  /** Requests that got no HTTP answer at all. */
  readonly failures: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** The median of the minute's samples (one sample lands before or after a collection of the young heap). */
  readonly rssMb: number
  readonly rssMaxMb: number
  readonly poolBusyMax: number
  readonly poolWaitingMax: number
  readonly poolSize: number
  /** The most connections seen idle in a transaction for more than 5 s at one sample. */
  readonly idleInTransactionMax: number
}

export const makeMinuteCounter = () => {
  let latencies: Array<number> = []
  let statuses: Array<number> = []
  let samples: Array<{ rss: number; busy: number; waiting: number; size: number; idleInTransaction: number }> = []
  return {
    answered: (status: number, ms: number) => {
      statuses.push(status)
      latencies.push(ms)
    },
    sampled: (sample: (typeof samples)[number]) => samples.push(sample),
    /** The minute's figures; starts the next minute. */
    close: (minute: number): Minute => {
      const sorted = latencies.sort((a, b) => a - b)
      const count = (f: (s: number) => boolean) => statuses.filter(f).length
      const max = (f: (s: (typeof samples)[number]) => number) => samples.reduce((m, s) => Math.max(m, f(s)), 0)
      const last = samples[samples.length - 1]
      const rss = samples.map((s) => s.rss).sort((a, b) => a - b)
      const mb = (bytes: number) => Number((bytes / 1048576).toFixed(1))
      const figures: Minute = {
        minute,
        requests: statuses.length,
        ok: count((s) => s >= 200 && s < 300),
        conflicts: count((s) => s === 409),
        otherClientErrors: count((s) => s >= 400 && s < 500 && s !== 409),
        serverErrors: count((s) => s >= 500),
        failures: count((s) => s === 0),
        p50Ms: Number(percentile(sorted, 50).toFixed(1)),
        p99Ms: Number(percentile(sorted, 99).toFixed(1)),
        rssMb: mb(percentile(rss, 50)),
        rssMaxMb: mb(rss[rss.length - 1] ?? Number.NaN),
        poolBusyMax: max((s) => s.busy),
        poolWaitingMax: max((s) => s.waiting),
        poolSize: last?.size ?? Number.NaN,
        idleInTransactionMax: max((s) => s.idleInTransaction)
      }
      latencies = []
      statuses = []
      samples = []
      return figures
    }
  }
}

/** A gauge's value in a Prometheus text exposition (the first series matching `series`). */
const gauge = (text: string, series: string): number => {
  const line = text.split("\n").find((l) => l.startsWith(series))
  return line === undefined ? Number.NaN : Number(line.slice(series.length).trim().split(" ")[0])
}

export const makeSampler = async (databaseUrl: string, metricsUrl: string, rssBytes: () => number | undefined) => {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "soak-observer" })
  await client.connect()
  const database = (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db ?? ""
  return {
    sample: async () => {
      const metrics = await fetch(metricsUrl).then((res) => res.text(), () => "")
      const idle = await client.query<{ n: number }>(`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND state = 'idle in transaction' AND state_change < now() - interval '5 seconds'`, [database])
      return {
        rss: rssBytes() ?? Number.NaN,
        busy: gauge(metrics, `hotel_db_pool_connections{state="busy"}`),
        waiting: gauge(metrics, "hotel_db_pool_waiting"),
        size: gauge(metrics, "hotel_db_pool_max"),
        idleInTransaction: idle.rows[0]?.n ?? 0
      }
    },
    close: () => client.end()
  }
}
