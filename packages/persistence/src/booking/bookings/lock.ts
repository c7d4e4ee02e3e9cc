// The locks of a booking's confirm and cancel: the booking's row, then its reservations' rows (`lockStay`,
// ../stayLocks.ts, which holds the order; a confirm then takes their room types). A confirm and a cancel of one
// booking queue on the booking's row; a single cancel, change or transition of one of its reservations queues on
// that reservation's row, taken by both sides before any room type's lock, so a booking's confirm never sees half
// of a cancel.
import type * as SqlClient from "effect/sql/SqlClient"
import { BookingNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { lockStay } from "../stayLocks.js"

export type { LockedBooking } from "../stayLocks.js"

/** Locks the property's booking `id` and its reservations' rows; 404 `booking_not_found` when there is none. */
export const lockBooking = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  Effect.flatMap(lockStay(sql, propertyId, { booking: id }), (locks) =>
    locks.booking === undefined
      ? Effect.fail(new BookingNotFound({ message: `No booking ${id}` }))
      : Effect.succeed(locks.booking))
