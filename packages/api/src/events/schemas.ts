import { Events } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { DateOnly, EventId, Id, Money } from "../common/Common.js"
import { FolioView } from "../folios/Api.js"
import { Guest } from "../guests/Api.js"
import { Inclusion } from "../rates/RateManagementSchemas.js"
import { Interval } from "../rates/RateManagementSchemas.js"
import { PromoCode } from "../rates/RateManagementSchemas.js"
import { RatePlan } from "../rates/Api.js"
import { Reservation } from "../booking/Api.js"
import { Block } from "../blocks/Api.js"
import { AriChanged } from "../ari/AriSchemas.js"

/** The nights whose availability a change took or freed (`end_date` exclusive, like a stay). */
export const AvailabilityChanged = Schema.Struct({
  room_type_id: Id,
  start_date: DateOnly,
  end_date: DateOnly
})

export const CancelledReservation = Schema.Struct({ ...Reservation.fields, refund_due_minor: Schema.Int })

export const ChangedReservation = Schema.Struct({ ...Reservation.fields, refund_due_minor: Schema.Int, amount_due: Money })

export const InclusionsReplaced = Schema.Struct({ rate_plan_id: Id, data: Schema.Array(Inclusion) }).annotate({ identifier: "InclusionsReplaced" })

/** Each event type's `data`: the resource as its `GET` answers at that moment. */
export const eventData: Record<Events.EventType, Schema.Top> = {
  "reservation.held": Reservation,
  "reservation.confirmed": Reservation,
  "reservation.cancelled": CancelledReservation,
  "reservation.expired": Reservation,
  "reservation.checked_in": Reservation,
  "reservation.checked_out": Reservation,
  "reservation.no_show": Reservation,
  "reservation.changed": ChangedReservation,
  "folio.charge_posted": FolioView,
  "folio.payment_recorded": FolioView,
  "guest.created": Guest,
  "loyalty.redeemed": Guest,
  "rate_plan.created": RatePlan,
  "rate_plan.updated": RatePlan,
  "rate_plan.deleted": RatePlan,
  "interval.created": Interval,
  "interval.updated": Interval,
  "interval.deleted": Interval,
  "inclusions.replaced": InclusionsReplaced,
  "promo_code.created": PromoCode,
  "promo_code.updated": PromoCode,
  "promo_code.deleted": PromoCode,
  "availability.changed": AvailabilityChanged,
  "block.created": Block,
  "block.updated": Block,
  "block.confirmed": Block,
  "block.released": Block,
  "block.cancelled": Block,
  "inventory.changed": AvailabilityChanged,
  "ari.changed": AriChanged
}

/** An event as the feed lists it and as a webhook POSTs it. */
export const Event = Schema.Struct({
  id: EventId.annotate({ description: "`evt_` and 32 hex digits; the `webhook-id` of its deliveries" }),
  type: Events.EventType,
  sequence: Schema.Int.annotate({ description: "Increases strictly per property, in commit order" }),
  created_at: Schema.String,
  // On the key: an `Unknown` value's own annotations are not part of the description.
  data: Schema.Unknown.pipe(
    Schema.annotateKey({ description: "The affected resource as its GET answers (see the webhooks section)" })
  )
})

export const EventPage = Schema.Struct({ data: Schema.Array(Event), has_more: Schema.Boolean }).annotate({ identifier: "EventPage" })

/** `types=a,b`: event types, comma-separated; an unknown one is refused with `param` `types`. */
export const TypesParam = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s: string) => s.split(",").every((t) => Events.isEventType(t.trim())), {
    message: `must be comma-separated event types from: ${Events.eventTypes.join(", ")}`
  })),
  Schema.decodeTo(
    Schema.Array(Events.EventType),
    SchemaTransformation.transform<ReadonlyArray<Events.EventType>, string>({
      decode: (s) => s.split(",").map((t) => t.trim()).filter(Events.isEventType),
      encode: (types) => types.join(",")
    })
  )
)
