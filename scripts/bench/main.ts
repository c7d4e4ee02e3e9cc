// `npm run bench`: our server against a raw baseline, workload by workload, alternating A/B for several
// rounds in one run. See ./README.md for the method. Options: --duration S (per run, default 5), --rounds N
// (default 3), --only WORKLOAD[,WORKLOAD] (names below), --connections N (default 32), --keys N (default 1: the
// load presents N keys of the property at random, see ./keys.ts), --cpu-prof DIR (our
// server's V8 CPU profile, to open in Chrome DevTools or any .cpuprofile viewer), --prepared-baseline (the
// baselines run prepared statements too: the plain server names its statements, pgbench runs `-M prepared`). DATABASE_URL: a server
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
import { hotel, type Running, startBaseline, startOurs } from "./processes.js"
import { benchProperty, seasons } from "./property.js"
import { markdown, summarize, type Summary } from "./stats.js"

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback
}
const duration = Number(option("duration", "5"))
const rounds = Number(option("rounds", "3"))
const connections = Number(option("connections", "32"))
const keyCount = Math.max(1, Math.floor(Number(option("keys", "1"))))
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
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

const SCOPES = [
  "rates:read", "rates:write", "reservations:read", "reservations:write", "catalog:read", "guests:read", "guests:write"
]

interface Setup {
  readonly url: string
  readonly key: string
  readonly propertyId: string
  readonly reservationId: string
  readonly guestId: string
  /** The hold workloads' guests, one picked at random per hold (a guest may hold only 10 stays at once). */
  readonly holdGuests: ReadonlyArray<string>
  readonly ids: { readonly std: string; readonly hot: string; readonly plan: string; readonly hotPlan: string }
}

const api = async (base: string, key: string, method: string, route: string, body?: unknown) => {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = (await res.json()) as Record<string, unknown>
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

/**
 * The bench property and a key with its own limit (hotel CLI, before our server starts, so it installs no
 * demo); then through the API: 3 seasons, a guest and one hold to read.
 */
const importProperty = async (url: string) => {
  const file = path.join(os.tmpdir(), `hotel-bench-property-${process.pid}.json`)
  writeFileSync(file, JSON.stringify(benchProperty))
  const imported = await hotel<{
    property_id: string
    room_types: Record<string, string>
    rate_plans: Record<string, string>
  }>(url, "property", "import", file).finally(() => rmSync(file, { force: true }))
  const expires = new Date(Date.now() + 2 * 3_600_000).toISOString()
  const { key } = await hotel<{ key: string }>(
    url, "key", "create", "--property", imported.property_id, "--label", "benchmark", "--rate-limit", "1000000",
    "--expires-at", expires, "--scopes", SCOPES.join(",")
  )
  const ids = {
    std: imported.room_types["STD"],
    hot: imported.room_types["HOT"],
    plan: imported.rate_plans["CHAIN-0"],
    hotPlan: imported.rate_plans["HOT-BAR"]
  }
  return { key, ids }
}

const setUp = async (url: string, ours: Running, { ids, key }: Awaited<ReturnType<typeof importProperty>>): Promise<Setup> => {
  for (const season of seasons) await api(ours.baseUrl, key, "POST", `/rate-plans/${ids.plan}/intervals`, season)
  const guest = await api(ours.baseUrl, key, "POST", "/guests", { first_name: "Ana", last_name: "Bench", email: "ana@example.com" })
  const guestId = String(guest["guest_id"])
  const hold = await api(ours.baseUrl, key, "POST", "/holds", {
    room_type_id: ids.std, rate_plan_id: ids.plan, check_in: "2030-12-01", check_out: "2030-12-04", guest_id: guestId, adults: 2
  })
  const me = await api(ours.baseUrl, key, "GET", "/me")
  const guests = await Effect.runPromise(adminQuery<{ id: string }>(url, `
    INSERT INTO guests (property_id, first_name, last_name, email, created_at)
    SELECT $1, 'Bench', 'Guest ' || n, 'bench-' || n || '@example.com', now() FROM generate_series(1, 1000) AS n
    RETURNING id`, [String(me["property_id"])]))
  // Planner statistics as autovacuum would have them by now (a server may run without it): both sides then
  // run the same plans as on a database in service.
  await Effect.runPromise(adminQuery(url, "ANALYZE"))
  const propertyId = String(me["property_id"])
  return { url, key, propertyId, reservationId: String(hold["reservation_id"]), guestId, holdGuests: guests.map((g) => g.id), ids }
}

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
    const ours = await startOurs(url, profileDir)
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
    const baseline = await startBaseline(url, recipesFile, preparedBaseline)
    const [spreadHold, hotHold] = captured.holds as [CapturedHold, CapturedHold]
    const scripts = {
      "holds-spread": holdScript({ hold: spreadHold, checkIn: SPREAD_FROM, nights: 2, spreadDays: SPREAD_DAYS, keys: scriptKeys }),
      "holds-hot": holdScript({ hold: hotHold, checkIn: HOT_NIGHT, nights: 2, spreadDays: 1, keys: scriptKeys })
    }
    if (process.argv.includes("--print-scripts")) console.log(scripts["holds-spread"])
    console.log(`bench: ${rounds} rounds × ${duration} s per side, ${connections} connections, ${keys.secrets.length} key(s), baselines ${preparedBaseline ? "prepared" : "unprepared"}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}`)
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
        baselineUrl: baseline.baseUrl,
        holdScript: isHolds(workload) ? scripts[workload as keyof typeof scripts] : undefined,
        pgbench: pgbench ?? "pgbench",
        pgbenchMode: preparedBaseline ? "prepared" : "extended",
        next: requestOf(setup, workload),
        rounds,
        duration,
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
