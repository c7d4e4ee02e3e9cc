// Request bodies of a booking of several rooms. Each room takes the fields of a hold's room (`roomFields`), so a
// room is validated exactly as a hold is; the gateway names a failing field by its path as sent
// (`rooms[1].adults`, `rooms[0].add_ons[2].quantity`). The guest and the stay are the booking's.
import * as Schema from "effect/Schema"
import { DateField, IdField } from "../rates/fields.js"
import { roomFields } from "./requests.js"

/** The most rooms one booking may hold. */
export const maxBookingRooms = 10

/** One room of `POST /bookings`: a hold's fields but the guest and the stay. */
export const BookingRoom = Schema.Struct(roomFields).annotate({
  identifier: "BookingRoom",
  message: "must be an object with room_type_id, rate_plan_id and adults"
})
export type BookingRoom = typeof BookingRoom.Type

/** `POST /bookings`. */
export const BookingCreate = Schema.Struct({
  guest_id: IdField,
  check_in: DateField,
  check_out: DateField,
  rooms: Schema.Array(BookingRoom).annotate({ message: "must be an array" }).pipe(
    Schema.check(Schema.makeFilter((rooms) => rooms.length >= 1 && rooms.length <= maxBookingRooms, {
      message: `must have 1 to ${maxBookingRooms} rooms`,
      toJsonSchema: () => ({ minItems: 1, maxItems: maxBookingRooms }),
      description: "The rooms to hold, 1 to 10, each with the fields of a hold's room"
    }))
  )
}).annotate({ identifier: "BookingCreate" })
export type BookingCreate = typeof BookingCreate.Type
