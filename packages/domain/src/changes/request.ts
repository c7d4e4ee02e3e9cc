// The body of `PATCH /reservations/{id}`: every field optional; one left out keeps the reservation's value.
// `promo_code`, `special_notes` and `child_ages` may be sent as null to clear them; the stay's own fields may not.
import * as Schema from "effect/Schema"
import { DateField, IdField, int, list, nullable, optional, text } from "../rates/fields.js"

/** `PATCH /reservations/{id}`. */
export const ReservationChange = Schema.Struct({
  check_in: optional(DateField),
  check_out: optional(DateField),
  room_type_id: optional(IdField),
  rate_plan_id: optional(IdField),
  adults: optional(int(1, 20)),
  children: optional(int(0, 20)),
  /** When sent, the authoritative child count (as on a hold); null forgets the ages. */
  child_ages: nullable(list(int(0, 120), 20)),
  promo_code: nullable(text(0, 40)),
  special_notes: nullable(text(0, 2000))
}).annotate({ identifier: "ReservationChange" })
export type ReservationChange = typeof ReservationChange.Type
