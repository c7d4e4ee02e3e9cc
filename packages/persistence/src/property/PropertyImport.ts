import * as SqlClient from "effect/sql/SqlClient"
import type { PropertyFile, PropertyFileInvalid } from "@hotel/domain"
import { checkPlanRoomTypesKept, decodePropertyFile } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import {
  importAgeBrackets,
  importCurrencies,
  importRoomTypes,
  importServices,
  importTaxes,
  upsertProperty
} from "./catalog.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { importRatePlans } from "./ratePlans.js"
import { withSpan } from "../database/Span.js"

/** What `hotel property import` prints: the ids of the property and of everything the file names, by code. */
export interface PropertyImportResult {
  readonly property_id: string
  readonly room_types: Readonly<Record<string, string>>
  readonly services: Readonly<Record<string, string>>
  readonly rate_plans: Readonly<Record<string, string>>
  readonly default_rate_plan_id: string
}

/**
 * Creates or updates a property from a property file, in one transaction. Everything is matched
 * by code (the property by `code`, its children by their codes within the property) and updated in place, so
 * importing the same file twice changes nothing. Rooms missing from the file are retired; taxes and age
 * brackets missing from it are removed (they are property rules the file states in full); currencies, room
 * types, services and rate plans missing from it are left as they are. A plan keeps its room type: a file that
 * moves one is refused (`checkPlanRoomTypesKept`), and nothing is written. Each rate plan it creates or changes
 * gets its `rate_plan.created` / `rate_plan.updated` event in the same transaction (room types, services, taxes
 * and currencies have no events).
 */
export class PropertyImport extends Context.Service<PropertyImport>()("@hotel/persistence/property/PropertyImport", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const outbox = yield* EventOutbox

    /** The room type code each of the property's plans sells, by plan code. */
    const plansRoomTypes = (propertyId: string) =>
      Effect.map(
        sql<{ code: string; room_type: string }>`
          SELECT p.code, t.code AS room_type FROM rate_plans p JOIN room_types t ON t.id = p.room_type_id
          WHERE p.property_id = ${propertyId} AND p.code IS NOT NULL`,
        (rows) => new Map(rows.map((row) => [row.code, row.room_type]))
      )

    /** Imports an already decoded property file. */
    const importFile = (file: PropertyFile): Effect.Effect<PropertyImportResult, PropertyFileInvalid> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const propertyId = yield* upsertProperty(sql, file, now)
        // Under the property row's lock (the upsert took it), so no other import moves a plan meanwhile.
        yield* Effect.flatMap(plansRoomTypes(propertyId), (existing) => Effect.fromResult(checkPlanRoomTypesKept(file, existing)))
        yield* importCurrencies(sql, propertyId, file)
        yield* importAgeBrackets(sql, propertyId, file)
        yield* importTaxes(sql, propertyId, file)
        const roomTypes = yield* importRoomTypes(sql, propertyId, file)
        const services = yield* importServices(sql, propertyId, file)
        const { ids: ratePlans, changes } = yield* importRatePlans(sql, propertyId, file, roomTypes, now)
        yield* outbox.append(propertyId, changes.map(({ created, id }) => ({
          type: created ? "rate_plan.created" : "rate_plan.updated",
          subject: Subject.ratePlan(id)
        })))
        const defaultCode = file.rate_plans.find((p) => p.default)?.code
        return {
          property_id: propertyId,
          room_types: roomTypes,
          services,
          rate_plans: ratePlans,
          default_rate_plan_id: defaultCode === undefined ? "" : ratePlans[defaultCode]
        }
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", Effect.die), withSpan("PropertyImport.importFile"))

    /** Decodes a parsed JSON document (`decodePropertyFile`), then imports it. */
    const importDocument = (input: unknown): Effect.Effect<PropertyImportResult, PropertyFileInvalid> =>
      Effect.flatMap(decodePropertyFile(input), importFile)

    return { importFile, importDocument } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
