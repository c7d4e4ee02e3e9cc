import * as SqlClient from "effect/sql/SqlClient"
import { Pricing } from "@hotel/domain"
import { EventsLive } from "@hotel/persistence/events/EventsLive"
import { Blocks } from "@hotel/persistence/blocks/Blocks"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

// The demo's one block: a conference group's Twin Rooms, definite, two months from the day the demo is
// installed (so the README's stay a month out never meets it), released 21 days before each night. A block is
// not part of the property file (it is a sale, not a description of the hotel), so it is created through the
// blocks service itself, once per property.

const daysFromToday = (days: number, now: number) => Pricing.addDays(new Date(now).toISOString().slice(0, 10), days)

export const seedDemoBlock = (imported: PropertyImportResult) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [{ count }] = yield* sql<{ count: number }>`
      SELECT count(*)::int AS count FROM blocks WHERE property_id = ${imported.property_id}`
    const roomTypeId = imported.room_types.TWN
    const ratePlanId = imported.rate_plans["BAR-TWN"]
    if (count > 0 || roomTypeId === undefined || ratePlanId === undefined) return
    const now = yield* Clock.currentTimeMillis
    const blocks = yield* Blocks
    yield* blocks.create(imported.property_id, {
      name: "Harbour Tech Summit",
      room_type_id: roomTypeId,
      rate_plan_id: ratePlanId,
      start_date: daysFromToday(60, now),
      end_date: daysFromToday(63, now),
      units: 2,
      status: "definite",
      price: "99.00",
      release_days_before: 21,
      notes: "Speakers' rooms; names by email two weeks before"
    })
  }).pipe(Effect.provide(Blocks.layer), Effect.provide(EventsLive), Effect.orDie)
