// `npm run bench`: our server against a raw baseline, workload by workload, alternating A/B for several
// rounds in one run. See ./README.md for the method. Options: --duration S (per run, default 5), --rounds N
// (default 3), --only WORKLOAD[,WORKLOAD] (names below), --connections N (default 32), --keys N (default 1: the
// load presents N keys of the property at random, see ./keys.ts), --cpu-prof DIR (our
// server's V8 CPU profile, to open in Chrome DevTools or any .cpuprofile viewer), --prepared-baseline (the
// baselines run prepared statements too: the plain server names its statements, pgbench runs `-M prepared`),
// --processes N (default 1: ours runs with PROCESSES=N, the plain server as N processes too). DATABASE_URL: a server
// to create the scratch database on; else an embedded PostgreSQL in a temporary directory.
import * as Effect from "effect/Effect"
import { rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { embeddedServer, scratchDatabase } from "../../packages/persistence/test/utils/scratchPostgres.js"
import { adminQuery, capture, type CapturedHold } from "./capture.js"
import type { Request } from "./load.js"
import { measure } from "./measure.js"
import { findPgbench, holdScript } from "./pgbench.js"
import { type KeySet, manyKeys, oneKey } from "./keys.js"
import { startBaseline, startOurs } from "./processes.js"
import { addDays, importProperty, SCOPES, type Setup, setUp } from "./setup.js"
import { markdown, summarize, type Summary } from "./stats.js"

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}
const duration = Number(option("duration", "5"))
const rounds = Number(option("rounds", "3"))
const connections = Number(option("connections", "32"))
const keyCount = Math.max(1, Math.floor(Number(option("keys", "1"))))
const processes = Math.max(1, Math.floor(Number(option("processes", "1"))))
const WORKLOADS = ["reservation", "me", "holds-spread", "holds-hot", "quote-3", "quote-30", "quote-30-untraced"] as const
type Workload = typeof WORKLOADS[number]
const preparedBaseline = process.argv.includes("--prepared-baseline")
const profileArg = option("cpu-prof", "")
const profileDir = profileArg === "" ? undefined : path.resolve(profileArg)
const only = option("only", WORKLOADS.join(",")).split(",").filter((w): w is Workload =>
  (WORKLOADS as ReadonlyArray<string>).includes(w)
)

const SPREAD_FROM = "2031-01-01"
const SPREAD_DAYS = 1095
const HOT_NIGHT = "2031-06-01"

const holdBody = (setup: Setup, hot: boolean): Request => {
  const checkIn = hot ? HOT_NIGHT : addDays(SPREAD_FROM, Math.floor(Math.random() * SPREAD_DAYS))
  return {
    method: "POST",
    path: "/holds",
    body: {
      room_type_id: hot ? setup.ids.hot : setup.ids.std,
      rate_plan_id: hot ? setup.ids.hotPlan : setup.ids.plan,
      check_in: checkIn,
      check_out: addDays(checkIn, 2),
      guest_id: setup.holdGuests[Math.floor(Math.random() * setup.holdGuests.length)] ?? setup.guestId,
      adults: 2
    }
  }
}

const requestOf = (setup: Setup, workload: Workload) => (): Request => {
  const rates = (out: string, extra = "") =>
    ({ method: "GET", path: `/rates?check_in=2031-03-01&check_out=${out}&adults=2&room_type_id=${setup.ids.std}${extra}` }) as const
  switch (workload) {
    case "reservation":
      return { method: "GET", path: `/reservations/${setup.reservationId}` }
    case "me":
      return { method: "GET", path: "/me" }
    case "holds-spread":
      return holdBody(setup, false)
    case "holds-hot":
      return holdBody(setup, true)
    case "quote-3":
      return rates("2031-03-04")
    case "quote-30":
      return rates("2031-03-31")
    case "quote-30-untraced":
      return rates("2031-03-31", "&trace=false")
  }
}

const isHolds = (w: Workload) => w === "holds-spread" || w === "holds-hot"

const main = Effect.gen(function*() {
  const given = process.env["DATABASE_URL"]
  const server = given !== undefined && given.length > 0 ? given : yield* embeddedServer("hotel-bench-")
  const url = yield* scratchDatabase(server, "hotel_bench")
  const pgbench = findPgbench()
  yield* Effect.promise(async () => {
    const imported = await importProperty(url)
    // One pool of 20 connections a side, shared out among its processes.
    const poolPerProcess = Math.ceil(20 / processes)
    const ours = await startOurs(url, profileDir, { PROCESSES: String(processes), HOTEL_DB_POOL_SIZE: String(poolPerProcess) })
    const setup = await setUp(url, ours, imported)
    const captured = await Effect.runPromise(capture(url, {
      key: setup.key,
      reservationId: setup.reservationId,
      roomTypeId: setup.ids.std,
      holds: [
        { roomTypeId: setup.ids.std, ratePlanId: setup.ids.plan, guestId: setup.guestId, checkIn: SPREAD_FROM, checkOut: addDays(SPREAD_FROM, 2) },
        { roomTypeId: setup.ids.hot, ratePlanId: setup.ids.hotPlan, guestId: setup.guestId, checkIn: HOT_NIGHT, checkOut: addDays(HOT_NIGHT, 2) }
      ]
    }))
    const keys: KeySet = keyCount > 1
      ? await Effect.runPromise(manyKeys(url, setup.propertyId, SCOPES, keyCount))
      : oneKey(setup.key)
    const scriptKeys = keys.prefix === undefined
      ? undefined
      : { prefix: keys.prefix, count: keys.secrets.length, hash: captured.recipes.auth.hash, keyId: captured.recipes.auth.keyId }
    const recipesFile = path.join(os.tmpdir(), `hotel-bench-recipes-${process.pid}.json`)
    writeFileSync(recipesFile, JSON.stringify(captured.recipes))
    const baseline = await startBaseline(url, recipesFile, preparedBaseline, processes, poolPerProcess)
    const [spreadHold, hotHold] = captured.holds as [CapturedHold, CapturedHold]
    const scripts = {
      "holds-spread": holdScript({ hold: spreadHold, checkIn: SPREAD_FROM, nights: 2, spreadDays: SPREAD_DAYS, keys: scriptKeys }),
      "holds-hot": holdScript({ hold: hotHold, checkIn: HOT_NIGHT, nights: 2, spreadDays: 1, keys: scriptKeys })
    }
    if (process.argv.includes("--print-scripts")) console.log(scripts["holds-spread"])
    console.log(`bench: ${rounds} rounds × ${duration} s per side, ${connections} connections, ${keys.secrets.length} key(s), ${processes} process(es) a side, baselines ${preparedBaseline ? "prepared" : "unprepared"}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}`)
    console.log(`SQL statements per request — me: ${captured.recipes.me.length}, reservation: ${captured.recipes.reservation.length}, quote-3: ${captured.recipes.rates3.length}, quote-30: ${captured.recipes.rates30.length}, hold: ${spreadHold.auth.length} + ${spreadHold.transaction.length} in its transaction`)

    const results: Array<Summary> = []
    const problems: Array<string> = []
    for (const workload of only) {
      if (isHolds(workload) && pgbench === undefined) {
        console.log(`${workload}: skipped, no pgbench found (install postgresql-client)`)
        continue
      }
      const measured = await measure({
        workload,
        url,
        keys,
        ours,
        baseline,
        holdScript: isHolds(workload) ? scripts[workload as keyof typeof scripts] : undefined,
        pgbench: pgbench ?? "pgbench",
        pgbenchMode: preparedBaseline ? "prepared" : "extended",
        next: requestOf(setup, workload),
        rounds,
        duration,
        // Each process warms its own JIT, pool and caches.
        warmup: 5 * processes,
        connections
      })
      problems.push(...measured.problems)
      results.push(summarize(workload, measured.ours, measured.baseline))
    }
    console.log(`\nNo night oversold: ${problems.some((p) => p.includes("OVERSOLD")) ? "NO — see below" : "checked after every hold run"}`)
    console.log(`\n${markdown(results)}\n`)
    for (const problem of problems) console.log(`PROBLEM: ${problem}`)
    await Promise.all([baseline.stop(), ours.stop()])
    rmSync(recipesFile, { force: true })
    if (profileDir !== undefined) console.log(`CPU profiles of our server: ${profileDir}`)
    if (problems.length > 0) process.exitCode = 1
  })
}).pipe(Effect.scoped)

Effect.runPromise(main).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
