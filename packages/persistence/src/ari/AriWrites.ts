import * as SqlClient from "effect/sql/SqlClient"
import { Ari, type InvalidParameters, Pricing, type RatePlanNotFound, type RoomTypeNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { lockStay } from "../booking/stayLocks.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"
import { EventOutbox, type PendingEvent } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { writeControls } from "../inventory/controlsWrite.js"
import { inventoryEvents } from "../inventory/events.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { noNights, PricingInputs, type PricingSnapshot } from "../quotes/PricingInputs.js"
import { lockProperty } from "../rates/RateSql.js"
import { writeNights } from "./nightsSql.js"

// `POST /ari`: a call's items applied whole or not at all, in one transaction: lock, load, the domain's checks
// (fields, references, rules), then the writes and the events. Lock order: the property's row (the lock every
// rate-plan write takes: two calls, or a call and a PATCH that makes a named plan derived, run one after the
// other), then the inventory items' room types in id order (the lock every sale of a type takes, as the PUT
// takes it). A hold racing a call needs neither: it prices from one statement's snapshot (`PricingInputs`), which
// sees the call's commit whole or not at all.

export interface AriWritten {
  readonly items: number
  readonly nightsUpdated: number
}

/** A live plan's id and the ids of every plan it derives from, nearest first. */
const chainIn = (snapshot: PricingSnapshot) => (planId: string): ReadonlyArray<string> => {
  const plan = snapshot.plansById.get(planId)?.model
  return plan === undefined ? [] : Pricing.planChain(plan).map((p) => p.id)
}

/** The call's events: `ari.changed` per plan it changes, then each room type's inventory events. */
const eventsOf = (items: ReadonlyArray<Ari.AriItem>, snapshot: PricingSnapshot): ReadonlyArray<PendingEvent> => [
  ...Ari.planSpans(items, snapshot.plans.map((plan) => plan.id), chainIn(snapshot)).map((span): PendingEvent => ({
    type: "ari.changed",
    subject: Subject.rendered({ rate_plan_id: span.id, start_date: span.start_date, end_date: span.end_date })
  })),
  ...Ari.roomTypeSpans(items).flatMap((span) => inventoryEvents(span.id, span.start_date, span.end_date))
]

export class AriWrites extends Context.Service<AriWrites>()("@hotel/persistence/ari/AriWrites", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs

    /** Applies the body's `items` (as sent) for the property, or refuses the call and changes nothing. */
    const apply = (
      propertyId: string,
      items: unknown
    ): Effect.Effect<AriWritten, InvalidParameters | RatePlanNotFound | RoomTypeNotFound, EventOutbox> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* lockProperty(sql, propertyId)
        const snapshot = yield* inputs.load(propertyId, now, noNights).pipe(Effect.flatMap(keyPropertyExists(propertyId)))
        const valid = yield* Effect.fromResult(Ari.validateItems(items, snapshot.today))
        const roomTypeIds = valid.flatMap((item) => (item.kind === "inventory" ? [item.room_type_id] : []))
        const locked = roomTypeIds.length === 0
          ? new Map<string, { readonly rooms: number }>()
          : (yield* lockStay(sql, propertyId, { roomTypes: roomTypeIds, countRooms: true })).roomTypes
        const targets: Ari.AriTargets = {
          plans: new Map(snapshot.plans.map((plan) => [plan.id, { derived: plan.model.derivation != null, currency: plan.currency }])),
          roomTypes: locked
        }
        const missing = Ari.missingTarget(valid, targets)
        if (Option.isSome(missing)) return yield* missing.value
        const checked = yield* Effect.fromResult(Ari.checkItems(valid, targets))
        yield* writeNights(sql, Ari.mergeRateItems(checked))
        for (const item of checked) {
          const type = item.kind === "inventory" ? locked.get(item.room_type_id) : undefined
          if (item.kind === "inventory" && type !== undefined) yield* writeControls(sql, item.room_type_id, item, type.rooms)
        }
        const outbox = yield* EventOutbox
        yield* outbox.append(propertyId, eventsOf(valid, snapshot))
        return { items: valid.length, nightsUpdated: valid.reduce((sum, item) => sum + item.nights.length, 0) }
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("AriWrites.apply"))

    return { apply } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(PricingInputs.layer))
}
