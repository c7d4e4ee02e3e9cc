import * as Schema from "effect/Schema"

/** Every kind of event the API publishes (one per kind of committed change). */
export const EventType = Schema.Literals(["reservation.held",
  "reservation.confirmed",
  "reservation.cancelled",
  "reservation.expired",
  "reservation.checked_in",
  "reservation.checked_out",
  "reservation.no_show",
  "reservation.changed",
  "folio.charge_posted",
  "folio.payment_recorded",
  "guest.created",
  "loyalty.redeemed",
  "rate_plan.created",
  "rate_plan.updated",
  "rate_plan.deleted",
  "interval.created",
  "interval.updated",
  "interval.deleted",
  "inclusions.replaced",
  "promo_code.created",
  "promo_code.updated",
  "promo_code.deleted",
  "availability.changed",
  "block.created",
  "block.updated",
  "block.confirmed",
  "block.released",
  "block.cancelled",
  "inventory.changed",
  "ari.changed"])
export type EventType = typeof EventType.Type

export const eventTypes: ReadonlyArray<EventType> = EventType.literals

export const isEventType = (value: string): value is EventType => (eventTypes as ReadonlyArray<string>).includes(value)

/** `evt_` and 32 lowercase hex digits (128 random bits). */
export const eventIdPattern = /^evt_[0-9a-f]{32}$/

export const eventIdFrom = (bytes: Uint8Array): string =>
  `evt_${Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("")}`

/** How long events stay readable in the feed; the purge deletes only older ones. */
export const retentionDays = 30
