// The second half of a hold, under its locks: the checks that need them, in the order of ../Holds.ts, then the
// writes. A hold of `POST /holds` and each room of `POST /bookings` run exactly this; a hold's events ride on its
// insert (`events`), a booking appends its rooms' together (one `availability.changed` per room type, not one per
// room). `roomTypeName` is the name as locked, which the hold's read shows.
import type * as SqlClient from "effect/sql/SqlClient"
import { Booking } from "@hotel/domain"
import * as Effect from "effect/Effect"
import type { Inventory } from "../../inventory/Inventory.js"
import type { Prepared } from "./prepare.js"
import type { HoldActor, HoldRequest } from "./requests.js"
import { type BookingSlot, type HoldWriting, writeHold } from "./writes.js"

/**
 * The live-hold caps (`live`: counted when the room type's lock was taken), `party_too_large`, then the rooms
 * free on every night (counted in the caller's transaction, so a booking's earlier rooms count as taken)
 * decide the offer priced beforehand; then the rows.
 */
export const placeHold = (
  sql: SqlClient.SqlClient,
  inventory: Inventory["Service"],
  actor: HoldActor,
  request: HoldRequest,
  prepared: Prepared,
  live: Booking.LiveHolds,
  booking: BookingSlot | null,
  written: HoldWriting
) =>
  Effect.gen(function*() {
    const { now, roomType } = prepared
    yield* Effect.fromResult(Booking.checkHoldLimits(live))
    yield* Effect.fromResult(prepared.partyFits)
    const [stock] = yield* inventory.available(actor.propertyId, {
      roomTypeId: roomType.id,
      from: request.checkIn,
      to: request.checkOut,
      now,
      blockId: request.blockId
    })
    const quote = yield* Booking.bookStay(prepared, stock?.available ?? 0)
    const record = Booking.stayRecord(prepared.snapshot, prepared, quote, {
      blockId: request.blockId,
      heldOverbooking: stock?.nights.map((night) => night.overbooking) ?? []
    })
    return yield* writeHold(sql, actor, request, { record, booking, holdExpiresAt: Booking.holdExpiresAt(now), now }, prepared.modifierValues, written)
  })
