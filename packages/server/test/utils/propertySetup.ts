import type { Rates } from "@hotel/domain"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import type { HoldRequest } from "./booking.js"
import { propertyFile } from "./fixtures.js"
import { insertGuest, insertPlan } from "./sqlSeed.js"
import type { TestApiService } from "./TestServer.js"

// Properties and plans the booking-flow tests set up beyond the fixture's own (re-exported by booking.ts).

export const uniqueCode = () => `B${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`

/**
 * Another property from the fixture file with its room types replaced by `roomTypes` (code → rooms) and one
 * plan per room type (`BAR-<code>`, 100.00 EUR); returns its ids, an all-scopes key and a guest of it.
 */
export const importRoomTypes = (api: TestApiService, roomTypes: Record<string, number>) =>
  Effect.gen(function*() {
    const code = uniqueCode()
    const base = propertyFile(code)
    const entries = Object.entries(roomTypes)
    const file = {
      ...base,
      room_types: entries.map(([rt, rooms]) => ({
        code: rt,
        name: `Room ${rt}`,
        base_occupancy: 2,
        max_occupancy: 3,
        bed_configs: ["king"],
        rooms: Array.from({ length: rooms }, (_, i) => `${rt}-${i + 1}`)
      })),
      rate_plans: entries.map(([rt], i) => ({
        code: `BAR-${rt}`,
        default: i === 0,
        room_type: rt,
        name: `Rate ${rt}`,
        base_price: "100.00",
        active_for_booking_engine: true,
        active_for_channels: true
      }))
    }
    const imported = yield* api.importProperty(file)
    const key = yield* api.createKey({ propertyId: imported.property_id })
    const guest = yield* insertGuest(api.sql, imported.property_id)
    return { imported, key, guest }
  })

/**
 * A body for `POST /holds` on a property from `importRoomTypes`: room type `code` on `BAR-<code>`, 1 adult, the
 * dates and any other field from `over`.
 */
export const importedHoldBody = (
  imported: PropertyImportResult,
  code: string,
  guestId: string,
  over: Partial<HoldRequest> & Pick<HoldRequest, "check_in" | "check_out">
): HoldRequest => ({
  room_type_id: imported.room_types[code],
  rate_plan_id: imported.rate_plans[`BAR-${code}`],
  guest_id: guestId,
  adults: 1,
  ...over
})

/** One inclusion of `POST /rate-plans/{id}/inclusions`, typed by the contract. */
export type Inclusion = Rates.Inclusion.InclusionsReplace["inclusions"][number]

/** A plan `name` at 150.00 on the fixture's DBL (SQL-seeded) with `inclusions` set through the API; returns its id. */
export const planWithInclusions = (
  api: TestApiService,
  name: string,
  inclusions: ReadonlyArray<Inclusion>
) =>
  Effect.gen(function*() {
    const plan = yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], {
      name,
      base_price: "150.00"
    })
    yield* api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions } })
    return plan
  })
