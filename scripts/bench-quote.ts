// `npm run bench:quote` (tsx scripts/bench-quote.ts): times `GET /rates` quotes through the QuoteService on a
// property with 50 rate plans, the deepest at the end of a 5-level derivation chain over seasonal intervals,
// and counts the SQL statements each quote runs. The count must not grow with the nights or the plans.
//
// Database: a fresh database created on the server of DATABASE_URL (dropped afterwards), else an embedded
// PostgreSQL in a temporary directory. Options (env): BENCH_ITERATIONS (default 200).
import * as Statement from "@effect/sql/Statement"
import * as SqlClient from "@effect/sql/SqlClient"
import { Money, parsePropertyFileJson } from "@hotel/domain"
import { DatabaseUrl } from "@hotel/persistence/DatabaseUrl"
import { MigrationsLive } from "@hotel/persistence/Migrations"
import { PropertyImport } from "@hotel/persistence/PropertyImport"
import { type RatesQuery, QuoteService } from "@hotel/persistence/quotes/QuoteService"
import { SqlLive } from "@hotel/persistence/Sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { embeddedServer, scratchDatabase } from "../packages/persistence/test/utils/scratchPostgres.js"

const iterations = Number(process.env["BENCH_ITERATIONS"] ?? "200")

// ---------------------------------------------------------------------------------------------------------
// Database

/** A fresh database on the server of DATABASE_URL, else on an embedded one, for the run; dropped at the end. */
const BenchDatabaseUrl = Layer.scoped(
  DatabaseUrl,
  Effect.gen(function*() {
    const given = process.env["DATABASE_URL"]
    const server = given !== undefined && given.length > 0 ? given : yield* embeddedServer("hotel-bench-")
    return Redacted.make(yield* scratchDatabase(server, "hotel_bench"))
  })
)

const DatabaseLive = MigrationsLive.pipe(Layer.provideMerge(SqlLive), Layer.provide(BenchDatabaseUrl))

// ---------------------------------------------------------------------------------------------------------
// The property: 50 plans on one room type; CHAIN-0 (with seasonal intervals) <- CHAIN-1 <- ... <- CHAIN-4.

const CHAIN = ["CHAIN-0", "CHAIN-1", "CHAIN-2", "CHAIN-3", "CHAIN-4"] as const
const DERIVATIONS = [
  { derivation_type: "percent", derivation_value: "-10" },
  { derivation_type: "fixed", derivation_value: "-5.00" },
  { derivation_type: "perPerson", derivation_value: "2.50" },
  { derivation_type: "percent", derivation_value: "3" }
] as const

const propertyFile = (plans: number) => ({
  code: `BENCH${plans}`,
  name: `Bench hotel (${plans} plans)`,
  timezone: "Europe/Lisbon",
  base_currency: "EUR",
  currencies: [{ currency: "USD", rate_to_base: "0.920000" }],
  loyalty_points_per_usd: 10,
  age_brackets: [{ max_age: 2, extra_guest_percent: "0" }, { max_age: 12, extra_guest_percent: "50" }],
  taxes: [
    { code: "VAT", name: "VAT", kind: "percent", value: "6", applies_to: "room" },
    { code: "CITY", name: "City tax", kind: "perGuestPerNight", value: "2.00", max_nights: 7, exempt_under_age: 13 }
  ],
  cancellation_policy: [{ days_before_arrival: 7, refund_percent: 100 }, { days_before_arrival: 0, refund_percent: 0 }],
  room_types: [{
    code: "DBL",
    name: "Double",
    base_occupancy: 2,
    max_occupancy: 4,
    bed_configs: ["king"],
    rooms: Array.from({ length: 20 }, (_, i) => `${plans}-${100 + i}`)
  }],
  services: [],
  rate_plans: [
    ...CHAIN.map((code, level) => ({
      code,
      default: level === 0,
      room_type: "DBL",
      name: `Chain level ${level}`,
      base_price: "120.00",
      extra_guest_charge: "30.00",
      active_for_booking_engine: true,
      active_for_channels: true,
      ...(level === 0 ? {} : { derived_from: CHAIN[level - 1], ...DERIVATIONS[level - 1] })
    })),
    ...Array.from({ length: plans - CHAIN.length }, (_, i) => ({
      code: `OTHER-${i}`,
      room_type: "DBL",
      name: `Other plan ${i}`,
      base_price: `${100 + i}.00`,
      extra_guest_charge: "25.00",
      active_for_booking_engine: true,
      active_for_channels: true,
      // Every other plan derives from the chain's top, the rest stand alone.
      ...(i % 2 === 0 ? { derived_from: "CHAIN-0", derivation_type: "percent", derivation_value: `-${i % 20}` } : {})
    }))
  ]
})

const seed = (plans: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const importer = yield* PropertyImport
    const file = yield* parsePropertyFileJson(JSON.stringify(propertyFile(plans))).pipe(Effect.orDie)
    const imported = yield* importer.importFile(file)
    const top = imported.rate_plans["CHAIN-0"]
    // Seasonal weekday prices on the chain's top plan: three seasons over the benchmarked month.
    const seasons = [["2031-03-01", "2031-03-11", "140.00"], ["2031-03-11", "2031-03-21", "160.00"], [
      "2031-03-21",
      "2031-04-01",
      "150.00"
    ]] as const
    for (const [start, end, price] of seasons) {
      yield* sql`
        INSERT INTO rate_plan_intervals (property_id, rate_plan_id, name, start_date, end_date, price_fri, price_sat)
        VALUES (${imported.property_id}, ${top}, ${`Season ${start}`}, ${start}, ${end}, ${price}, ${price})`
    }
    return imported
  }).pipe(Effect.orDie)

// ---------------------------------------------------------------------------------------------------------
// Measuring

/** Runs `effect` counting every SQL statement it executes. */
const counting = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    let statements = 0
    return effect.pipe(
      Statement.withTransformer((statement) =>
        Effect.sync(() => {
          statements++
          return statement
        })
      ),
      Effect.map((result) => ({ result, statements }))
    )
  })

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

const stayOf = (nights: number): Pick<RatesQuery, "checkIn" | "checkOut"> => {
  const checkIn = "2031-03-01"
  const out = new Date(Date.parse(`${checkIn}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10)
  return { checkIn, checkOut: out }
}

const program = Effect.gen(function*() {
  const quotes = yield* QuoteService
  const small = yield* seed(5)
  const large = yield* seed(50)
  const deepest = large.rate_plans["CHAIN-4"]
  const party = { adults: 2, childAges: [9] }

  const quote = (propertyId: string, nights: number, ratePlanId: string | null) =>
    quotes.rates(propertyId, { ...stayOf(nights), party, ratePlanId, includeUnavailable: true }, "back_office")

  // Query counts across nights and plan counts.
  const counts: Array<Record<string, unknown>> = []
  for (const [label, propertyId, plans] of [["5 plans", small.property_id, 5], ["50 plans", large.property_id, 50]] as const) {
    for (const nights of [1, 7, 30]) {
      const all = yield* counting(quote(propertyId, nights, null))
      counts.push({ property: label, nights, plan: "all", offers: all.result.length, sql_statements: all.statements })
    }
  }
  const one = yield* counting(quote(large.property_id, 30, deepest))
  counts.push({ property: "50 plans", nights: 30, plan: "CHAIN-4", offers: one.result.length, sql_statements: one.statements })
  const statementCounts = new Set(counts.map((row) => row.sql_statements))

  const [offer] = one.result
  const trace = offer.nights.find((night) => night.date === "2031-03-14")?.trace.map((t) => `${t.step} ${t.amount}`)

  // Timing: the deepest plan alone, and the whole list of 50 offers, both over 30 nights.
  const time = (run: Effect.Effect<unknown, unknown>) =>
    Effect.gen(function*() {
      for (let i = 0; i < 10; i++) yield* run // warm-up
      const samples: Array<number> = []
      for (let i = 0; i < iterations; i++) {
        const started = performance.now()
        yield* run
        samples.push(performance.now() - started)
      }
      samples.sort((a, b) => a - b)
      const mean = samples.reduce((a, b) => a + b, 0) / samples.length
      return {
        iterations,
        mean_ms: Number(mean.toFixed(2)),
        p50_ms: Number(percentile(samples, 50).toFixed(2)),
        p95_ms: Number(percentile(samples, 95).toFixed(2)),
        max_ms: Number(samples[samples.length - 1].toFixed(2))
      }
    })
  const single = yield* time(quote(large.property_id, 30, deepest))
  const list = yield* time(quote(large.property_id, 30, null))

  console.log("SQL statements per quote (must not depend on nights or plans):")
  console.table(counts)
  console.log(`30-night quote of CHAIN-4 (5-level chain): total ${Option.match(offer.quote, { onNone: () => "n/a", onSome: (q) => Money.format(q.total, offer.currency) })} ${offer.currency}; reasons: ${JSON.stringify(offer.reasons)}`)
  console.log(`  trace of 2031-03-14 (a Friday in the 160.00 season): ${(trace ?? []).join(" -> ")}`)
  console.log("Timing (QuoteService.rates, 30 nights, 50-plan property):")
  console.table({ "one plan (CHAIN-4)": single, "all 50 plans": list })
  if (statementCounts.size !== 1) {
    console.error(`FAIL: the number of SQL statements varies: ${[...statementCounts].join(", ")}`)
    return yield* Effect.sync(() => process.exit(1))
  }
  console.log(`OK: every quote ran ${[...statementCounts][0]} SQL statements.`)
})

const MainLive = Layer.mergeAll(QuoteService.Default, PropertyImport.Default).pipe(Layer.provideMerge(DatabaseLive))

Effect.runPromise(program.pipe(Effect.provide(MainLive), Effect.scoped)).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
