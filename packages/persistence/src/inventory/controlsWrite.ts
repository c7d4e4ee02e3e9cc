// THE write of a room type's sell limits and overbooking on a range of nights: what
// `PUT /room-types/{id}/inventory` runs, and what each inventory item of `POST /ari` runs, so both do exactly the
// same on their nights. The caller holds the room type's lock (the lock every sale of the type takes) and read its
// rooms under it; the caller appends the events, as its own answer's span decides.
import type * as SqlClient from "effect/sql/SqlClient"
import { Inventory as Rules } from "@hotel/domain"
import * as Effect from "effect/Effect"

export interface ControlsInput {
  readonly start_date: string
  readonly end_date: string
  readonly days?: ReadonlyArray<Rules.Weekday> | undefined
  readonly sell_limit?: number | null | undefined
  readonly overbooking?: number | undefined
}

/** Sets the fields `input` carries on its nights (400 when one is above the type's `rooms`); the nights set. */
export const writeControls = (sql: SqlClient.SqlClient, roomTypeId: string, input: ControlsInput, rooms: number) =>
  Effect.gen(function*() {
    const nights = yield* Effect.fromResult(Rules.plannedControls(input, rooms))
    const limitSent = input.sell_limit !== undefined
    const overbookingSent = input.overbooking !== undefined
    if (nights.length > 0) {
      yield* sql`
        INSERT INTO inventory_nights (room_type_id, night, sell_limit, overbooking)
        SELECT ${roomTypeId}, x.night, ${input.sell_limit ?? null}::int, ${input.overbooking ?? 0}
        FROM unnest(${[...nights]}::date[]) AS x(night)
        ON CONFLICT (room_type_id, night) DO UPDATE SET
          sell_limit = CASE WHEN ${limitSent} THEN EXCLUDED.sell_limit ELSE inventory_nights.sell_limit END,
          overbooking = CASE WHEN ${overbookingSent} THEN EXCLUDED.overbooking ELSE inventory_nights.overbooking END`
    }
    return nights.length
  })
