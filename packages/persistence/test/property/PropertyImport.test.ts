import * as SqlClient from "effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import type { PropertyFileInvalid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import { PropertyImport } from "../../src/property/PropertyImport.js"
import { TestDatabase } from "../utils/TestDatabase.js"
import { TestEventsLayer } from "../utils/TestEvents.js"

/** A small property file; `code` makes each test's property its own. */
const propertyFile = (code: string) => ({
  code,
  name: `Test Hotel ${code}`,
  timezone: "Europe/Lisbon",
  base_currency: "EUR",
  currencies: [{ currency: "USD", rate_to_base: "0.920000" }],
  age_brackets: [
    { max_age: 2, extra_guest_percent: "0" },
    { max_age: 12, extra_guest_percent: "50" }
  ],
  taxes: [
    { code: "VAT", name: "VAT", kind: "percent", value: "6", applies_to: "room" },
    { code: "CITY", name: "City tax", kind: "perGuestPerNight", value: "2.00", max_nights: 7, exempt_under_age: 13 }
  ],
  cancellation_policy: [
    { days_before_arrival: 2, refund_percent: 50 },
    { days_before_arrival: 7, refund_percent: 100 }
  ],
  room_types: [
    { code: "DBL", name: "Double", base_occupancy: 2, max_occupancy: 3, bed_configs: ["king"], rooms: ["101", "102", "103"] },
    { code: "STE", name: "Suite", base_occupancy: 2, max_occupancy: 4, rooms: ["301"] }
  ],
  services: [
    {
      code: "BRK",
      name: "Breakfast",
      price: "15.00",
      pricing_unit: "perGuestPerNight",
      revenue_category: "fnb",
      tax: { kind: "percent", value: "13" },
      modifiers: [{ key: "diet", label: "Diet", type: "select", options: ["none", "vegan"] }]
    }
  ],
  rate_plans: [
    // The derived plan comes first: the import must still create its parent before it.
    {
      code: "NR-DBL",
      room_type: "DBL",
      name: "Non-refundable",
      kind: "promotion",
      base_price: "120.00",
      derived_from: "BAR-DBL",
      derivation_type: "percent",
      derivation_value: "-10",
      cancellation_policy: [{ days_before_arrival: 0, refund_percent: 0 }]
    },
    { code: "BAR-DBL", default: true, room_type: "DBL", name: "Best available", base_price: "120.00", extra_guest_charge: "30.00" },
    { code: "BAR-STE", room_type: "STE", name: "Suite rate", base_price: "250.00" },
    { code: "USD-DBL", room_type: "DBL", name: "Dollar rate", base_price: "130.00", currency: "USD" }
  ]
})


const TestLayer = PropertyImport.layer.pipe(Layer.provide(TestEventsLayer), Layer.provideMerge(TestDatabase.layer()))

/** Rows per table for one property: an import that changes nothing leaves these equal. */
const snapshot = (propertyId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ table: string; count: number }>`
      SELECT 'property_currencies' AS table, count(*)::int AS count FROM property_currencies WHERE property_id = ${propertyId}
      UNION ALL SELECT 'age_brackets', count(*)::int FROM age_brackets WHERE property_id = ${propertyId}
      UNION ALL SELECT 'taxes', count(*)::int FROM taxes WHERE property_id = ${propertyId}
      UNION ALL SELECT 'room_types', count(*)::int FROM room_types WHERE property_id = ${propertyId}
      UNION ALL SELECT 'rooms', count(*)::int FROM rooms WHERE property_id = ${propertyId}
      UNION ALL SELECT 'services', count(*)::int FROM services WHERE property_id = ${propertyId}
      UNION ALL SELECT 'rate_plans', count(*)::int FROM rate_plans WHERE property_id = ${propertyId}
      UNION ALL SELECT 'properties', count(*)::int FROM properties`
    const plans = yield* sql<{ code: string; id: string; updated_at: Date }>`
      SELECT code, id, updated_at FROM rate_plans WHERE property_id = ${propertyId} ORDER BY code`
    const rooms = yield* sql<{ number: string; id: string; retired: boolean }>`
      SELECT number, id, retired FROM rooms WHERE property_id = ${propertyId} ORDER BY number`
    return { counts: Object.fromEntries(rows.map((r) => [r.table, r.count])), plans, rooms }
  })

const importFile = (file: unknown) => Effect.flatMap(PropertyImport, (importer) => importer.importDocument(file))

const failure = (file: unknown) =>
  Effect.map(Effect.flip(importFile(file)), (error: PropertyFileInvalid) => error.message)

layer(TestLayer, { timeout: "120 seconds" })("PropertyImport", (it) => {
  it.effect("imports a property file and returns the ids by code", () =>
    Effect.gen(function*() {
      const result = yield* importFile(propertyFile("IMPORT1"))
      const sql = yield* SqlClient.SqlClient

      expect(Object.keys(result.room_types)).toEqual(["DBL", "STE"])
      expect(Object.keys(result.services)).toEqual(["BRK"])
      expect(Object.keys(result.rate_plans)).toEqual(["NR-DBL", "BAR-DBL", "BAR-STE", "USD-DBL"])
      expect(result.default_rate_plan_id).toBe(result.rate_plans["BAR-DBL"])
      // each new plan is created in the file's order, and never updated before it was created
      const stamps = yield* sql<{ code: string; created_at: Date; updated_at: Date }>`
        SELECT code, created_at, updated_at FROM rate_plans WHERE property_id = ${result.property_id} ORDER BY created_at`
      expect(stamps.map((p) => p.code)).toEqual(["NR-DBL", "BAR-DBL", "BAR-STE", "USD-DBL"])
      for (const plan of stamps) expect(plan.updated_at.getTime()).toBeGreaterThanOrEqual(plan.created_at.getTime())

      const [property] = yield* sql<{ id: string; code: string; cancellation_policy: unknown; loyalty_points_per_usd: number }>`
        SELECT id, code, cancellation_policy, loyalty_points_per_usd FROM properties WHERE id = ${result.property_id}`
      expect(property.code).toBe("IMPORT1")
      expect(property.loyalty_points_per_usd).toBe(10)
      expect(property.cancellation_policy).toEqual([
        { days_before_arrival: 7, refund_percent: 100 },
        { days_before_arrival: 2, refund_percent: 50 }
      ])

      const plans = yield* sql<{
        code: string
        room_type_id: string
        currency: string
        derived_from_id: string | null
        derivation_value: string | null
        is_default: boolean
        base_price: string
        extra_guest_charge: string
        cancellation_policy: unknown
      }>`
        SELECT code, room_type_id, currency, derived_from_id, derivation_value::text AS derivation_value, is_default,
               base_price::text AS base_price, extra_guest_charge::text AS extra_guest_charge, cancellation_policy
        FROM rate_plans WHERE property_id = ${result.property_id} ORDER BY created_at, id`
      const byCode = Object.fromEntries(plans.map((p) => [p.code, p]))
      expect(plans.map((p) => p.code)).toEqual(["NR-DBL", "BAR-DBL", "BAR-STE", "USD-DBL"])
      expect(byCode["NR-DBL"].derived_from_id).toBe(result.rate_plans["BAR-DBL"])
      expect(byCode["NR-DBL"].derivation_value).toBe("-10")
      expect(byCode["NR-DBL"].cancellation_policy).toEqual([{ days_before_arrival: 0, refund_percent: 0 }])
      expect(byCode["NR-DBL"].currency).toBe("EUR")
      expect(byCode["USD-DBL"].currency).toBe("USD")
      expect(byCode["BAR-STE"].room_type_id).toBe(result.room_types["STE"])
      expect(byCode["BAR-DBL"].extra_guest_charge).toBe("30.00")
      expect(byCode["BAR-STE"].extra_guest_charge).toBe("0")
      expect(byCode["BAR-DBL"].cancellation_policy).toBeNull()
      expect(plans.filter((p) => p.is_default).map((p) => p.code)).toEqual(["BAR-DBL"])

      const taxes = yield* sql<{ code: string; applies_to: string | null; max_nights: number | null }>`
        SELECT code, applies_to, max_nights FROM taxes WHERE property_id = ${result.property_id} ORDER BY position`
      expect(taxes).toEqual([
        { code: "VAT", applies_to: "room", max_nights: null },
        { code: "CITY", applies_to: null, max_nights: 7 }
      ])
      const [service] = yield* sql<{ tax: unknown; modifiers: unknown; guest_bookable: boolean }>`
        SELECT tax, modifiers, guest_bookable FROM services WHERE id = ${result.services["BRK"]}`
      expect(service).toEqual({
        tax: { kind: "percent", value: "13" },
        modifiers: [{ key: "diet", label: "Diet", type: "select", options: ["none", "vegan"], required: false }],
        guest_bookable: true
      })
    }))

  it.effect("importing the same file twice changes nothing", () =>
    Effect.gen(function*() {
      const file = propertyFile("TWICE")
      const first = yield* importFile(file)
      const before = yield* snapshot(first.property_id)
      yield* TestClock.adjust("1 hour")
      const second = yield* importFile(file)
      const after = yield* snapshot(first.property_id)
      expect(second).toEqual(first)
      expect(after).toEqual(before)
    }))

  it.effect("an edited file updates in place: same ids, new values, the default moves", () =>
    Effect.gen(function*() {
      const file = propertyFile("EDIT")
      const first = yield* importFile(file)
      const before = yield* snapshot(first.property_id)
      yield* TestClock.adjust("1 hour")
      const edited = {
        ...file,
        name: "Renamed",
        taxes: [file.taxes[0]],
        rate_plans: file.rate_plans.map((plan) =>
          plan.code === "BAR-DBL"
            ? { ...plan, base_price: "140.00", default: false }
            : plan.code === "BAR-STE"
            ? { ...plan, default: true }
            : plan
        )
      }
      const second = yield* importFile(edited)
      expect(second.property_id).toBe(first.property_id)
      expect(second.rate_plans).toEqual(first.rate_plans)
      expect(second.default_rate_plan_id).toBe(first.rate_plans["BAR-STE"])

      const sql = yield* SqlClient.SqlClient
      const plans = yield* sql<{ code: string; base_price: string; is_default: boolean; updated_at: Date }>`
        SELECT code, base_price::text AS base_price, is_default, updated_at FROM rate_plans
        WHERE property_id = ${first.property_id} ORDER BY code`
      const byCode = Object.fromEntries(plans.map((p) => [p.code, p]))
      expect(byCode["BAR-DBL"]).toMatchObject({ base_price: "140.00", is_default: false })
      expect(byCode["BAR-STE"].is_default).toBe(true)
      const previous = Object.fromEntries(before.plans.map((p) => [p.code, p.updated_at.getTime()]))
      expect(byCode["BAR-DBL"].updated_at.getTime()).toBeGreaterThan(previous["BAR-DBL"])
      expect(byCode["USD-DBL"].updated_at.getTime()).toBe(previous["USD-DBL"])
      const [{ name }] = yield* sql<{ name: string }>`SELECT name FROM properties WHERE id = ${first.property_id}`
      expect(name).toBe("Renamed")
      const taxes = yield* sql<{ code: string }>`SELECT code FROM taxes WHERE property_id = ${first.property_id}`
      expect(taxes.map((t) => t.code)).toEqual(["VAT"])
    }))

  it.effect("a room removed from the file is retired, and comes back with its id when re-added", () =>
    Effect.gen(function*() {
      const file = propertyFile("RETIRE")
      const first = yield* importFile(file)
      const before = yield* snapshot(first.property_id)
      const without103 = {
        ...file,
        room_types: [{ ...file.room_types[0], rooms: ["101", "102"] }, file.room_types[1]]
      }
      yield* importFile(without103)
      const retired = yield* snapshot(first.property_id)
      expect(retired.counts).toEqual(before.counts)
      expect(retired.rooms).toEqual(before.rooms.map((r) => (r.number === "103" ? { ...r, retired: true } : r)))

      // Re-added to another room type: the same room, in service again.
      const moved = {
        ...file,
        room_types: [{ ...file.room_types[0], rooms: ["101", "102"] }, { ...file.room_types[1], rooms: ["301", "103"] }]
      }
      const result = yield* importFile(moved)
      const after = yield* snapshot(first.property_id)
      expect(after.rooms).toEqual(before.rooms)
      const sql = yield* SqlClient.SqlClient
      const [room] = yield* sql<{ room_type_id: string }>`
        SELECT room_type_id FROM rooms WHERE property_id = ${first.property_id} AND number = '103'`
      expect(room.room_type_id).toBe(result.room_types["STE"])
    }))

  it.effect("a plan keeps its room type: a file that moves one is refused, naming the field, and writes nothing", () =>
    Effect.gen(function*() {
      const file = propertyFile("KEEP")
      const first = yield* importFile(file)
      const before = yield* snapshot(first.property_id)
      yield* TestClock.adjust("1 hour")
      const moved = {
        ...file,
        name: "Renamed",
        rate_plans: file.rate_plans.map((plan) => plan.code === "USD-DBL" ? { ...plan, room_type: "STE" } : plan)
      }
      expect(yield* failure(moved)).toBe(
        "invalid property file: rate_plans[3].room_type: cannot change: plan USD-DBL sells room type DBL " +
          "(a plan's room type is fixed; import the other offer under a new code)"
      )
      expect(yield* snapshot(first.property_id)).toEqual(before)
      // The other offer under a new code is a new plan.
      const added = { ...file, rate_plans: [...file.rate_plans, { ...file.rate_plans[3], code: "USD-STE", room_type: "STE" }] }
      expect(Object.keys((yield* importFile(added)).rate_plans)).toContain("USD-STE")
    }))

  describe("an invalid file is rejected with the field's path, and nothing is written", () => {
    it.effect("unknown key", () =>
      Effect.gen(function*() {
        const file = propertyFile("BAD1")
        const message = yield* failure({
          ...file,
          rate_plans: [{ ...file.rate_plans[1], colour: "blue" }]
        })
        expect(message).toContain("rate_plans[0].colour: is not a known field")
      }))

    it.effect("money with more decimals than the currency allows", () =>
      Effect.gen(function*() {
        const file = propertyFile("BAD2")
        const message = yield* failure({
          ...file,
          rate_plans: file.rate_plans.map((p) => (p.code === "BAR-DBL" ? { ...p, base_price: "120.001" } : p))
        })
        expect(message).toContain("rate_plans[1].base_price: has more decimals than EUR allows (2)")
      }))

    it.effect("a float where a decimal string is required", () =>
      Effect.gen(function*() {
        const file = propertyFile("BAD3")
        const message = yield* failure({ ...file, services: [{ ...file.services[0], price: 15.5 }] })
        expect(message).toContain("services[0].price: must be a decimal string")
      }))

    it.effect("missing field", () =>
      Effect.gen(function*() {
        const { timezone: _, ...file } = propertyFile("BAD4")
        const message = yield* failure({
          ...file,
          room_types: [{ code: "DBL", base_occupancy: 2, max_occupancy: 3, rooms: [] }]
        })
        expect(message).toContain("timezone: is required")
        expect(message).toContain("room_types[0].name: is required")
      }))

    it.effect("cross-field rules: derivation fields, references, one default", () =>
      Effect.gen(function*() {
        const file = propertyFile("BAD5")
        const message = yield* failure({
          ...file,
          rate_plans: [
            { ...file.rate_plans[0], derivation_type: undefined, derived_from: "BAR-DBL" },
            { ...file.rate_plans[1], room_type: "NOPE" },
            { ...file.rate_plans[2], default: true },
            { ...file.rate_plans[3], currency: "GBP" }
          ].map((plan) => JSON.parse(JSON.stringify(plan)))
        })
        expect(message).toContain("rate_plans[0].derivation_type: is required with derived_from")
        expect(message).toContain("rate_plans[1].room_type: names no room type in this file (\"NOPE\")")
        expect(message).toContain("rate_plans[2].default: only one rate plan may be the default")
        expect(message).toContain("rate_plans[3].currency: must be the base currency (EUR) or one listed in currencies")
      }))

    it.effect("nothing was written for the rejected files", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ code: string }>`SELECT code FROM properties WHERE code LIKE 'BAD%'`
        expect(rows).toEqual([])
      }))
  })
})
