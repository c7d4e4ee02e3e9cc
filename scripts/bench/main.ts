// `npm run bench`: our server against baselines that run the same SQL, workload by workload, alternating for
// several rounds in one run. See ./README.md for the method. Options: --duration S (per run, default 5),
// --rounds N (default 3), --only WORKLOAD[,WORKLOAD] (names in ./workloads.ts), --connections N (wrk's, default
// 32), --threads N (wrk's, default 2), --sessions N (pgbench's, default 20: our server's pool), --keys N (default
// 8192: the load presents N keys of the property at random, see ./keys.ts), --cpu-prof DIR (our server's V8
// CPU profile, to open in Chrome DevTools or any .cpuprofile viewer), --unprepared-baseline (the plain server
// sends unnamed statements, pgbench runs `-M extended`), --processes N (default 1: ours runs with
// PROCESSES=N, the plain server as N processes too), --print-scripts (the pgbench and wrk scripts).
// DATABASE_URL: a server to create the scratch database on; else an embedded PostgreSQL in a temporary directory.
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { embeddedServer, scratchDatabase } from "../../packages/persistence/test/utils/scratchPostgres.js"
import { ariWorkloads } from "./ari.js"
import type { BaselineRecipes } from "./baseline.js"
import { capture, type CapturedHold } from "./capture.js"
import type { HoldRecipe } from "./holdParams.js"
import { goalLines, OURS_NO_OVERRIDES, PGBENCH, PLAIN } from "./goals.js"
import { type KeySet, manyKeys, oneKey } from "./keys.js"
import { type Baseline, measure } from "./measure.js"
import { holdGuestsTable, holdScript, type PgbenchScript, readScript, type ScriptKeys } from "./pgbench.js"
import { startBaseline, startOurs } from "./processes.js"
import { sameStatements } from "./recipe.js"
import { addDays, importProperty, SCOPES, setUp } from "./setup.js"
import { markdown, plainVsPgbench, summarize, type Summary } from "./stats.js"
import { ensureWrk, findPgbench } from "./tools.js"
import {
  baselinesOf, HOLD_NIGHTS, HOT_NIGHT, isHolds, loadOf, SPREAD_DAYS, SPREAD_FROM, tracedByDefault, trafficOf, type Workload,
  WORKLOADS
} from "./workloads.js"
import { writeWrkScript, wrkScript } from "./wrk.js"

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}
const count = (name: string, fallback: number) => Math.max(1, Math.floor(Number(option(name, String(fallback)))))
const duration = Number(option("duration", "5"))
const rounds = count("rounds", 3)
const connections = count("connections", 32)
const threads = count("threads", 2)
const sessions = count("sessions", 20)
const keyCount = count("keys", 8192)
const processes = count("processes", 1)
const prepared = !process.argv.includes("--unprepared-baseline")
const profileArg = option("cpu-prof", "")
const profileDir = profileArg === "" ? undefined : path.resolve(profileArg)
// Always in the order of `WORKLOADS`, whatever order --only names them in: the holds' truncation between runs
// deletes the reservation the read workload reads, so reads run first.
const asked = option("only", WORKLOADS.join(",")).split(",")
const only = WORKLOADS.filter((workload) => asked.includes(workload))

const main = Effect.gen(function*() {
  const wrk = ensureWrk()
  const pgbench = findPgbench()
  const given = process.env["DATABASE_URL"]
  const server = given !== undefined && given.length > 0 ? given : yield* embeddedServer("hotel-bench-")
  const url = yield* scratchDatabase(server, "hotel_bench")
  yield* Effect.promise(async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "hotel-bench-"))
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
        { roomTypeId: setup.ids.std, ratePlanId: setup.ids.plan, guestId: setup.guestId, checkIn: SPREAD_FROM, checkOut: addDays(SPREAD_FROM, HOLD_NIGHTS) },
        { roomTypeId: setup.ids.hot, ratePlanId: setup.ids.hotPlan, guestId: setup.guestId, checkIn: HOT_NIGHT, checkOut: addDays(HOT_NIGHT, HOLD_NIGHTS) }
      ]
    }))
    const { recipes } = captured
    const keys: KeySet = keyCount > 1
      ? await Effect.runPromise(manyKeys(url, setup.propertyId, SCOPES, keyCount))
      : oneKey(setup.key)
    const keysFile = path.join(work, "keys.txt")
    writeFileSync(keysFile, `${keys.secrets.join("\n")}\n`)
    const scriptKeys: ScriptKeys | undefined = keys.prefix === undefined
      ? undefined
      : { prefix: keys.prefix, count: keys.secrets.length, hash: recipes.auth.hash, keyId: recipes.auth.keyId }
    const [spreadHold, hotHold] = captured.holds as [CapturedHold, CapturedHold]
    const holdRecipe = (hold: CapturedHold, roomTypeId: string, checkIn: string): HoldRecipe =>
      ({ hold, roomTypeId, checkIn, checkOut: addDays(checkIn, HOLD_NIGHTS), guestId: setup.guestId })
    const baselineRecipes: BaselineRecipes = {
      ...recipes,
      holds: [holdRecipe(spreadHold, setup.ids.std, SPREAD_FROM), holdRecipe(hotHold, setup.ids.hot, HOT_NIGHT)]
    }
    const recipesFile = path.join(work, "recipes.json")
    writeFileSync(recipesFile, JSON.stringify(baselineRecipes))
    const plain = await startBaseline(url, recipesFile, prepared, processes, poolPerProcess)
    const read = (recipe: typeof recipes.rates30) => readScript({ auth: recipes.me, recipe, keys: scriptKeys })
    await Effect.runPromise(holdGuestsTable(url, setup.holdGuests))
    const guest = { captured: setup.guestId, count: setup.holdGuests.length }
    const ari = await ariWorkloads(url, ours, setup, work, readScript({ auth: recipes.me, recipe: recipes.me, keys: scriptKeys }))
    const pgbenchScripts: Partial<Record<Workload, PgbenchScript>> = {
      "holds-spread": holdScript({ hold: spreadHold, checkIn: SPREAD_FROM, nights: HOLD_NIGHTS, spreadDays: SPREAD_DAYS, keys: scriptKeys, guest }),
      "holds-hot": holdScript({ hold: hotHold, checkIn: HOT_NIGHT, nights: HOLD_NIGHTS, spreadDays: 1, keys: scriptKeys, guest }),
      "quote-3": read(recipes.rates3),
      "quote-30": read(recipes.rates30),
      "quote-30-traced": read(recipes.rates30Traced),
      "ari-write": ari.script
    }
    const legacyTrace = await tracedByDefault(ours, setup)
    const untraced = legacyTrace ? "&trace=false" : ""

    console.log(`bench: ${rounds} rounds × ${duration} s per side; wrk ${threads} threads, ${connections} connections; pgbench ${sessions} sessions -M ${prepared ? "prepared" : "extended"}; plain server ${prepared ? "named prepared" : "unnamed"} statements; ${keys.secrets.length} key(s); ${processes} process(es) a side; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}`)
    console.log(`SQL statements per request — me: ${recipes.me.length}, reservation: ${recipes.reservation.length}, quote-3: ${recipes.rates3.length}, quote-30: ${recipes.rates30.length} (traced: ${recipes.rates30Traced.length}, ${sameStatements(recipes.rates30, recipes.rates30Traced) ? "the same statements" : "OTHER statements"}), hold: ${spreadHold.auth.length} + ${spreadHold.transaction.length} in its transaction`)
    console.log(ari.summary)
    if (legacyTrace) console.log("bench: this server traces quotes unless told not to (before include=trace): untraced quotes send trace=false")
    if (pgbench === undefined) console.log("bench: no pgbench found (Debian: postgresql-client): holds and quotes run against the plain server only")
    if (process.argv.includes("--print-scripts")) {
      for (const [workload, script] of Object.entries(pgbenchScripts)) console.log(`--- pgbench, ${workload} ---\n${script.text}\n(variables: ${script.defines.join(" ")})`)
      console.log(`--- wrk, holds-spread ---\n${wrkScript(trafficOf(setup, "holds-spread", untraced, ari.ari), keysFile)}`)
    }

    const results: Array<Summary> = []
    const ceilings: Array<string> = []
    const problems: Array<string> = []
    for (const workload of only) {
      const baselines = baselinesOf(workload).flatMap((name): Array<Baseline> => {
        if (name === PLAIN) return [{ name, kind: "server", server: plain }]
        if (name === OURS_NO_OVERRIDES) {
          const script = writeWrkScript(path.join(work, "quote-30-base.lua"), trafficOf(setup, "quote-30", untraced, ari.ari), keysFile)
          return [{ name, kind: "server", server: ours, script }]
        }
        const script = pgbenchScripts[workload]
        return pgbench === undefined || script === undefined ? [] : [{ name, kind: "pgbench", script }]
      })
      if (baselines.length === 0) {
        console.log(`${workload}: skipped, no baseline (no pgbench)`)
        continue
      }
      const load = loadOf(workload, { threads, connections, sessions, duration })
      if (workload === "ari-write") console.log(`ari-write: wrk ${load.connections} connections, pgbench ${load.sessions} sessions, ${load.duration} s per side (see loadOf)`)
      const measured = await measure({
        workload,
        url,
        ours,
        baselines,
        holds: isHolds(workload),
        wrk: { path: wrk, script: writeWrkScript(path.join(work, `${workload}.lua`), trafficOf(setup, workload, untraced, ari.ari), keysFile), threads: load.threads, connections: load.connections },
        pgbench: { path: pgbench ?? PGBENCH, mode: prepared ? "prepared" : "extended", sessions: load.sessions },
        rounds,
        duration: load.duration,
        // Each process warms its own JIT, pool and caches.
        warmup: 5 * processes
      })
      problems.push(...measured.problems)
      for (const baseline of measured.baselines) results.push(summarize(workload, baseline.name, measured.ours, baseline.runs))
      const plainRuns = measured.baselines.find((baseline) => baseline.name === PLAIN)?.runs
      const pgbenchRuns = measured.baselines.find((baseline) => baseline.name === PGBENCH)?.runs
      if (plainRuns !== undefined && pgbenchRuns !== undefined) ceilings.push(plainVsPgbench(workload, plainRuns, pgbenchRuns))
    }
    console.log(`\nNo night oversold: ${problems.some((p) => p.includes("OVERSOLD")) ? "NO — see below" : "checked after every hold run"}`)
    console.log(`\n${markdown(results)}\n`)
    for (const line of goalLines(results)) console.log(line)
    if (ceilings.length > 0) console.log(`\nplain server / pgbench, the same statements with no framework:\n${ceilings.join("\n")}`)
    for (const problem of problems) console.log(`PROBLEM: ${problem}`)
    await Promise.all([plain.stop(), ours.stop()])
    rmSync(work, { recursive: true, force: true })
    if (profileDir !== undefined) console.log(`CPU profiles of our server: ${profileDir}`)
    if (problems.length > 0) process.exitCode = 1
  })
}).pipe(Effect.scoped)

Effect.runPromise(main).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
