import * as SqlClient from "effect/sql/SqlClient"
import * as Statement from "effect/sql/Statement"
import { describe, expect, it, layer } from "@effect/vitest"
import { Money } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Inventory } from "../../src/inventory/Inventory.js"
import { buildPlans, type PlanPricingRow, PricingInputs } from "../../src/quotes/PricingInputs.js"
import { PropertyImport } from "../../src/property/PropertyImport.js"
import { Quotes } from "../../src/quotes/Quotes.js"
import { TestDatabase } from "../utils/TestDatabase.js"
import { TestEventsLayer } from "../utils/TestEvents.js"

/** No test here reads an override: any nights will do. */
const anySpan = { from: "2030-01-01", through: "2030-01-02" }

const row = (id: string, overrides: Partial<PlanPricingRow> = {}): PlanPricingRow => ({
  id,
  code: id,
  room_type_id: "rt",
  name: id,
  public_name: null,
  base_price: "100",
  currency: "EUR",
  extra_guest_charge: "0",
  single_guest_discount: "0",
  single_guest_discount_type: "fixed",
  min_los: null,
  max_los: null,
  booking_window_start: null,
  booking_window_end: null,
  stay_window_start: null,
  stay_window_end: null,
  active_for_booking_engine: true,
  active_for_channels: true,
  kind: "standard",
  derived_from_id: null,
  derivation_type: null,
  derivation_value: null,
  is_active: true,
  is_default: false,
  requires_promo_code: false,
  cancellation_policy: null,
  deleted: false,
  ...overrides
})

const derivedFrom = (parent: string): Partial<PlanPricingRow> => ({ derived_from_id: parent, derivation_type: "percent", derivation_value: "-10" })

describe("buildPlans", () => {
  it("links each plan to its loaded parent, whatever the row order", () => {
    const plans = buildPlans([row("c", derivedFrom("b")), row("a"), row("b", derivedFrom("a"))], [])
    const c = plans.get("c")
    expect(c?.derivation?.parent.id).toBe("b")
    expect(c?.derivation?.parent.derivation?.parent.id).toBe("a")
    expect(c?.derivation?.parent).toBe(plans.get("b"))
    expect(c?.deleted).toBe(false)
  })

  it("marks a plan whose chain cannot be built (missing parent, cycle) as deleted, so it is hidden", () => {
    const plans = buildPlans([row("x", derivedFrom("y")), row("y", derivedFrom("x")), row("orphan", derivedFrom("gone"))], [])
    expect(plans.get("orphan")?.deleted).toBe(true)
    // One plan of the cycle is cut; the other derives from it and is hidden through its ancestor.
    const x = plans.get("x")
    const y = plans.get("y")
    expect([x?.deleted, y?.deleted]).toContain(true)
    const hidden = (id: string) => {
      for (let plan = plans.get(id); plan !== undefined; plan = plan.derivation?.parent) if (plan.deleted) return true
      return false
    }
    expect(hidden("x")).toBe(true)
    expect(hidden("y")).toBe(true)
  })
})

const propertyFile = (code: string, extraPlans: number) => ({
  code,
  name: `Inputs ${code}`,
  timezone: "Asia/Tokyo",
  base_currency: "EUR",
  currencies: [{ currency: "JPY", rate_to_base: "0.0062" }],
  age_brackets: [{ max_age: 12, extra_guest_percent: "50" }],
  taxes: [{ code: "CITY", name: "City tax", kind: "perNight", value: "1.50" }],
  cancellation_policy: [{ days_before_arrival: 3, refund_percent: 80 }],
  room_types: [{ code: "TWN", name: "Twin", base_occupancy: 2, max_occupancy: 2, rooms: ["1", "2"] }],
  services: [{
    code: "SPA",
    name: "Spa",
    price: "40.00",
    pricing_unit: "perGuest",
    revenue_category: "spa",
    tax: { kind: "percent", value: "10" }
  }],
  rate_plans: [
    { code: "BAR", default: true, room_type: "TWN", name: "BAR", base_price: "100.00" },
    {
      code: "YEN",
      room_type: "TWN",
      name: "Yen",
      base_price: "15000",
      currency: "JPY",
      cancellation_policy: [{ days_before_arrival: 1, refund_percent: 100 }]
    },
    ...Array.from({ length: extraPlans }, (_, i) => ({
      code: `P${i}`,
      room_type: "TWN",
      name: `P${i}`,
      base_price: "90.00",
      derived_from: i === 0 ? "BAR" : `P${i - 1}`,
      derivation_type: "fixed",
      derivation_value: "-1.00"
    }))
  ]
})

const TestLayer = Layer.mergeAll(PropertyImport.layer.pipe(Layer.provide(TestEventsLayer)), Quotes.layer, PricingInputs.layer, Inventory.layer)
  .pipe(Layer.provideMerge(TestDatabase.layer()))

const importFile = (code: string, extraPlans = 0) =>
  Effect.flatMap(PropertyImport, (importer) => importer.importDocument(propertyFile(code, extraPlans))).pipe(Effect.orDie)

/** Runs `effect` and counts its SQL statements. */
const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    let statements = 0
    return effect.pipe(
      Effect.provideService(Statement.CurrentTransformer, (statement) => Effect.sync(() => (statements++, statement))),
      Effect.map((result) => ({ result, statements }))
    )
  })

const now = new Date("2030-01-01T12:00:00Z")

layer(TestLayer, { timeout: "120 seconds", excludeTestServices: true })("PricingInputs", (it) => {
  it.effect("loads the property, room types, plans with chains, intervals, inclusions, services and codes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inputs = yield* PricingInputs
      const imported = yield* importFile("LOAD", 2)
      const property = imported.property_id
      const p1 = imported.rate_plans["P1"]
      yield* sql`INSERT INTO rate_plan_intervals (property_id, rate_plan_id, name, start_date, end_date, price_sat)
                 VALUES (${property}, ${imported.rate_plans["BAR"]}, 'Winter', '2030-01-01', '2030-02-01', '120.50')`
      yield* sql`INSERT INTO rate_plan_inclusions (rate_plan_id, position, label, allocated_amount, frequency,
                   revenue_category, currency) VALUES (${p1}, 0, 'Parking', '0', 'perNight', 'other', 'EUR')`
      const { snapshot, statements } = yield* counted(
        Effect.map(inputs.load(property, now, anySpan), (found) => ({ snapshot: Option.getOrThrow(found) }))
      ).pipe(Effect.map(({ result, statements }) => ({ snapshot: result.snapshot, statements })))
      // One statement, whatever the number of plans, intervals, inclusions or codes.
      expect(statements).toBe(1)
      expect(snapshot.today).toBe("2030-01-01")
      expect(snapshot.property.timezone).toBe("Asia/Tokyo")
      expect(snapshot.property.pricing.exchangeRates.map((r) => [r.currency, Money.toDb(r.rateToBase)])).toEqual([["JPY", "0.0062"]])
      expect(snapshot.property.pricing.taxes.map((t) => [t.code, t.kind, Money.toDb(t.value)])).toEqual([["CITY", "perNight", "1.5"]])
      expect(snapshot.property.pricing.cancellationPolicy).toEqual([{ daysBeforeArrival: 3, refundPercent: 80 }])
      expect(snapshot.roomTypes.map((r) => [r.code, r.baseOccupancy, r.maxOccupancy])).toEqual([["TWN", 2, 2]])
      expect(snapshot.plans.map((p) => p.code)).toEqual(["BAR", "YEN", "P0", "P1"])
      const chained = snapshot.plansById.get(p1)
      expect(chained?.model.derivation?.parent.id).toBe(imported.rate_plans["P0"])
      expect(chained?.model.derivation?.parent.derivation?.parent.id).toBe(imported.rate_plans["BAR"])
      expect(chained?.model.derivation?.parent.derivation?.parent.intervals.map((i) => i.name)).toEqual(["Winter"])
      expect(chained?.inclusions.map((i) => [i.label, i.frequency, i.currency])).toEqual([["Parking", "perNight", "EUR"]])
      expect(snapshot.plansById.get(imported.rate_plans["YEN"])?.model.cancellationPolicy).toEqual([
        { daysBeforeArrival: 1, refundPercent: 100 }
      ])
      const spa = snapshot.servicesById.get(imported.services["SPA"])
      expect(spa?.model.pricingUnit).toBe("perGuest")
      expect(spa?.model.tax?.kind).toBe("percent")
      expect(Option.isNone(yield* inputs.load("00000000-0000-4000-8000-000000000000", now, anySpan))).toBe(true)
    }))

  it.effect("loadForPlan loads one live plan and its ancestors; a deleted ancestor comes along, hidden", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inputs = yield* PricingInputs
      const imported = yield* importFile("ONE", 3)
      const snapshot = Option.getOrThrow(yield* inputs.loadForPlan(imported.property_id, imported.rate_plans["P1"], now, anySpan))
      expect(snapshot.plans.map((p) => p.code)).toEqual(["BAR", "P0", "P1"])
      const p1 = snapshot.plansById.get(imported.rate_plans["P1"])
      expect(p1?.model.derivation?.parent.derivation?.parent.id).toBe(imported.rate_plans["BAR"])
      yield* sql`UPDATE rate_plans SET deleted_at = ${now} WHERE id = ${imported.rate_plans["P0"]}`
      const after = Option.getOrThrow(yield* inputs.loadForPlan(imported.property_id, imported.rate_plans["P1"], now, anySpan))
      expect(after.plans.map((p) => p.code)).toEqual(["BAR", "P1"])
      expect(after.plansById.get(imported.rate_plans["P1"])?.model.derivation?.parent.deleted).toBe(true)
      const gone = Option.getOrThrow(yield* inputs.loadForPlan(imported.property_id, imported.rate_plans["P0"], now, anySpan))
      expect(gone.plans).toEqual([])
      const malformed = Option.getOrThrow(yield* inputs.loadForPlan(imported.property_id, "nope", now, anySpan))
      expect(malformed.plans).toEqual([])
    }))

  it.effect("reads inside the caller's transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inputs = yield* PricingInputs
      const imported = yield* importFile("TX")
      const seen = yield* Effect.gen(function*() {
        yield* sql`UPDATE rate_plans SET base_price = 77 WHERE id = ${imported.rate_plans["BAR"]}`
        const inside = Option.getOrThrow(yield* inputs.loadForPlan(imported.property_id, imported.rate_plans["BAR"], now, anySpan))
        return yield* Effect.fail(Money.toDb(inside.plans[0].model.basePrice))
      }).pipe(sql.withTransaction, Effect.flip)
      expect(seen).toBe("77")
      const outside = Option.getOrThrow(yield* inputs.loadForPlan(imported.property_id, imported.rate_plans["BAR"], now, anySpan))
      expect(Money.toDb(outside.plans[0].model.basePrice)).toBe("100")
    }))

  it.effect("counts live redemptions of each code, per guest when asked", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inputs = yield* PricingInputs
      const imported = yield* importFile("CODES")
      const property = imported.property_id
      const bar = imported.rate_plans["BAR"]
      const [code] = yield* sql<{ id: string }>`
        INSERT INTO promo_codes (property_id, rate_plan_id, code) VALUES (${property}, ${bar}, 'HELLO') RETURNING id`
      const [guest] = yield* sql<{ id: string }>`
        INSERT INTO guests (property_id, first_name, last_name) VALUES (${property}, 'A', 'B') RETURNING id`
      const [other] = yield* sql<{ id: string }>`
        INSERT INTO guests (property_id, first_name, last_name) VALUES (${property}, 'C', 'D') RETURNING id`
      const book = (guestId: string, status: string, holdExpiresAt: Date | null) =>
        sql`INSERT INTO reservations (property_id, confirmation_code, guest_id, room_type_id, rate_plan_id, status,
              check_in_date, check_out_date, adults, children, currency, nightly_rate, total, room_revenue,
              booking_source, promo_code_id, hold_expires_at, created_at, updated_at)
            VALUES (${property}, ${globalThis.crypto.randomUUID()}, ${guestId}, ${imported.room_types["TWN"]}, ${bar},
              ${status}, '2030-02-01', '2030-02-02', 2, 0, 'EUR', 100, 100, 100, 'test', ${code.id}, ${holdExpiresAt},
              ${now}, ${now})`
      yield* book(guest.id, "confirmed", null)
      yield* book(guest.id, "tentative", new Date(now.getTime() + 60_000))
      yield* book(guest.id, "tentative", now) // expires exactly now: no longer counts
      yield* book(guest.id, "cancelled", null)
      yield* book(other.id, "no_show", null)
      yield* book(other.id, "checked_in", null)
      const quote = Option.getOrThrow(yield* inputs.load(property, now, anySpan))
      expect(quote.promoCodes.map((c) => [c.code, c.redemptions, c.guestRedemptions])).toEqual([["HELLO", 4, null]])
      const booking = Option.getOrThrow(yield* inputs.loadForPlan(property, bar, now, anySpan, { guestId: guest.id }))
      expect(booking.promoCodes.map((c) => [c.code, c.redemptions, c.guestRedemptions])).toEqual([["HELLO", 4, 2]])
      // A minute later the live hold has expired too.
      const later = Option.getOrThrow(yield* inputs.load(property, new Date(now.getTime() + 60_000), anySpan, { guestId: guest.id }))
      expect(later.promoCodes.map((c) => [c.redemptions, c.guestRedemptions])).toEqual([[3, 1]])
    }))

  it.effect("a quote runs the same number of statements whatever the nights or the plans", () =>
    Effect.gen(function*() {
      const quotes = yield* Quotes
      const few = yield* importFile("FEW", 0)
      const many = yield* importFile("MANY", 20)
      const party = { adults: 2 }
      const count = (propertyId: string, checkOut: string, ratePlanId: string | null = null) =>
        Effect.map(
          counted(
            quotes.rates(propertyId, { checkIn: "2030-03-01", checkOut, party, ratePlanId, includeUnavailable: true }, "back_office")
          ),
          ({ result, statements }) => ({ offers: result.length, statements })
        )
      const results = [
        yield* count(few.property_id, "2030-03-02"),
        yield* count(few.property_id, "2030-03-31"),
        yield* count(many.property_id, "2030-03-02"),
        yield* count(many.property_id, "2030-03-31")
      ]
      expect(results.map((r) => r.offers)).toEqual([2, 2, 22, 22])
      expect(new Set(results.map((r) => r.statements)).size).toBe(1)
      // The snapshot and the inventory.
      expect(results[0].statements).toBe(2)
      // The deepest plan of a 21-level chain, priced over 30 nights: still 2.
      const deepest = yield* count(many.property_id, "2030-03-31", many.rate_plans["P19"])
      expect(deepest).toEqual({ offers: 1, statements: 2 })
    }))

  it.effect("Inventory can leave one reservation out (a confirm re-checks without its own hold)", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inventory = yield* Inventory
      const imported = yield* importFile("INV")
      const property = imported.property_id
      const twin = imported.room_types["TWN"]
      const [guest] = yield* sql<{ id: string }>`
        INSERT INTO guests (property_id, first_name, last_name) VALUES (${property}, 'A', 'B') RETURNING id`
      const [hold] = yield* sql<{ id: string }>`
        INSERT INTO reservations (property_id, confirmation_code, guest_id, room_type_id, rate_plan_id, status,
          check_in_date, check_out_date, adults, children, currency, nightly_rate, total, room_revenue,
          booking_source, hold_expires_at, created_at, updated_at)
        VALUES (${property}, ${globalThis.crypto.randomUUID()}, ${guest.id}, ${twin}, ${imported.rate_plans["BAR"]},
          'tentative', '2030-02-01', '2030-02-03', 2, 0, 'EUR', 100, 200, 200, 'test',
          ${new Date(now.getTime() + 60_000)}, ${now}, ${now})
        RETURNING id`
      const query = { roomTypeId: twin, from: "2030-01-31", to: "2030-02-03", now }
      const [entry] = yield* inventory.available(property, query)
      expect(entry.nights.map((n) => [n.date, n.rooms, n.taken, n.available])).toEqual([
        ["2030-01-31", 2, 0, 2],
        ["2030-02-01", 2, 1, 1],
        ["2030-02-02", 2, 1, 1]
      ])
      expect(entry.available).toBe(1)
      const [without] = yield* inventory.available(property, { ...query, excludeReservationId: hold.id })
      expect(without.available).toBe(2)
      expect(yield* inventory.available(property, { ...query, to: query.from })).toEqual([])
    }))
})
