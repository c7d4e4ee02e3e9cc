import type { Events } from "@hotel/domain"
import type { PendingEvent, StayNights } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import type { ReservationRead } from "./ReservationColumns.js"

// The events of reservations that took or freed their nights together (one hold, a booking's rooms, a booking's
// cancel): each reservation's own event, in order, then one `availability.changed` per room type, covering
// the nights of the first of them of that type (a booking's rooms share one stay), not one per room.

/** A reservation whose nights a change took or freed. */
export interface StayChange {
  readonly reservation: { readonly id: string; readonly refundDueMinor?: bigint; readonly read?: ReservationRead }
  readonly nights: StayNights
}

export const stayChangeEvents = (type: Events.EventType, changes: ReadonlyArray<StayChange>): ReadonlyArray<PendingEvent> => {
  const byType = new Map<string, StayNights>()
  for (const change of changes) {
    if (!byType.has(change.nights.roomTypeId)) byType.set(change.nights.roomTypeId, change.nights)
  }
  return [
    ...changes.map(({ reservation }): PendingEvent => ({
      type,
      subject: Subject.reservation(reservation.id, reservation.refundDueMinor, reservation.read)
    })),
    ...[...byType.values()].map((nights): PendingEvent => ({
      type: "availability.changed",
      subject: Subject.availability(nights.roomTypeId, nights.checkIn, nights.checkOut)
    }))
  ]
}
