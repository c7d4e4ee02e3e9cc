// Request body of `POST /reservations/{id}/check-in`; check-out and no-show take no body.
import * as Schema from "effect/Schema"
import { IdField } from "../rates/fields.js"

export const CheckIn = Schema.Struct({
  /** A room of the reservation's room type to assign; absent or null assigns the first free one. */
  room_id: Schema.optionalKey(Schema.NullOr(IdField))
}).annotate({ identifier: "CheckIn" })
export type CheckIn = typeof CheckIn.Type
