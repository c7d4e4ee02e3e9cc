// `npm run soak`: our server under a steady mixed load for a set time, one line of figures per minute, and a
// verdict (exit code 1 when it fails). See ./README.md. Options: --minutes N (default 10), --rate R (requests
// a second, default 50). DATABASE_URL: a server to create the scratch database on; else an embedded
// PostgreSQL in a temporary directory.
import * as Effect from "effect/Effect"
import { embeddedServer, scratchDatabase } from "../../packages/persistence/test/utils/scratchPostgres.js"
import { freePort, startOurs } from "../bench/processes.js"
import { importProperty, setUp } from "../bench/setup.js"
import { type Answer, makeMix, weights } from "./mix.js"
import { makeMinuteCounter, makeSampler, type Minute } from "./observe.js"
import { memoryTrend, table, verdict } from "./verdict.js"

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}
const minutes = Math.max(1, Math.floor(Number(option("minutes", "10"))))
const rate = Math.max(1, Number(option("rate", "50")))
const SAMPLE_EVERY_MS = 5_000
const TICK_MS = 100

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const soak = async (url: string) => {
  const imported = await importProperty(url)
  const metricsPort = await freePort()
  const ours = await startOurs(url, undefined, { METRICS_PORT: String(metricsPort), LOG_LEVEL: "warning" })
  try {
    const setup = await setUp(url, ours, imported)
    const counter = makeMinuteCounter()
    const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
      const started = performance.now()
      const answer = await fetch(`${ours.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${setup.key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }).then(
        async (res) => ({ status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> }),
        () => ({ status: 0, body: {} })
      )
      counter.answered(answer.status, performance.now() - started)
      return answer
    }
    const mix = makeMix(setup, send)
    const sampler = await makeSampler(url, `http://127.0.0.1:${metricsPort}/metrics`, ours.rssBytes)
    console.log(`soak: ${minutes} min at ${rate} requests/s, mix ${weights.map(([a, w]) => `${a} ${w}%`).join(", ")}`)

    const results: Array<Minute> = []
    const inFlight = new Set<Promise<unknown>>()
    const started = Date.now()
    let sent = 0
    let nextSample = started
    let minute = 1
    while (minute <= minutes) {
      const now = Date.now()
      // Open loop: requests go out at the rate whatever the answers' latency (a slow server queues them).
      const due = Math.floor(((now - started) / 1000) * rate) - sent
      for (let i = 0; i < due; i++) {
        const request = mix.next().catch(() => undefined).finally(() => inFlight.delete(request))
        inFlight.add(request)
      }
      sent += Math.max(0, due)
      if (now >= nextSample) {
        counter.sampled(await sampler.sample())
        nextSample += SAMPLE_EVERY_MS
      }
      if (now - started >= minute * 60_000) {
        const figures = counter.close(minute)
        results.push(figures)
        console.log(`minute ${minute}: ${figures.requests} requests (${figures.ok} 2xx, ${figures.conflicts} 409, ${figures.otherClientErrors} other 4xx, ${figures.serverErrors} 5xx, ${figures.failures} unanswered), p99 ${figures.p99Ms} ms, RSS ${figures.rssMb} MB (max ${figures.rssMaxMb}), pool busy ≤ ${figures.poolBusyMax}/${figures.poolSize}, waiting ≤ ${figures.poolWaitingMax}, idle in tx ${figures.idleInTransactionMax}, in flight ${inFlight.size}`)
        minute += 1
      }
      await sleep(TICK_MS)
    }
    await Promise.all(inFlight)
    await sampler.close()
    console.log(`\n${table(results)}\n`)
    console.log(memoryTrend(results))
    const failures = verdict(results)
    console.log(failures.length === 0 ? "verdict: PASS" : `verdict: FAIL\n${failures.map((f) => `- ${f}`).join("\n")}`)
    return failures.length === 0
  } finally {
    await ours.stop()
  }
}

const main = Effect.gen(function*() {
  const given = process.env["DATABASE_URL"]
  const server = given !== undefined && given.length > 0 ? given : yield* embeddedServer("hotel-soak-")
  const url = yield* scratchDatabase(server, "hotel_soak")
  return yield* Effect.promise(() => soak(url))
}).pipe(Effect.scoped)

Effect.runPromise(main).then(
  (passed) => {
    process.exitCode = passed ? 0 : 1
  },
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
