// The check every block write that may set more rooms aside runs before it commits: the rooms free for general
// sale before the change, under the room type's lock, against what the change sets aside more.
import { Blocks } from "@hotel/domain"
import * as Effect from "effect/Effect"
import type { Inventory } from "../inventory/Inventory.js"
import type { BlockRead } from "./BlockSql.js"

/**
 * A change that may set more rooms aside (a definite block created, confirmed, raised or its release moved
 * later): each night must have had as many rooms free for general sale, counted before the change under the
 * room type's lock, as the change sets aside more there; else 409 `no_availability` and the caller's
 * transaction rolls back.
 */
export const requireFreeRooms = (
  free: ReadonlyMap<string, number>,
  before: Blocks.CountedBlock | null,
  after: Blocks.CountedBlock
) =>
  Blocks.checkRoomsFree(Blocks.roomsTaken(before, after).map(({ date, needed }) => ({
    date,
    needed,
    free: free.get(date) ?? 0
  })))

/** The rooms free for general sale on each night of the block's range, at `now` (the caller holds the type's lock). */
export const freeBefore = (
  inventory: Inventory["Service"],
  propertyId: string,
  block: { readonly room_type_id: string; readonly start_date: string; readonly end_date: string },
  now: Date
) =>
  Effect.map(
    inventory.available(propertyId, { roomTypeId: block.room_type_id, from: block.start_date, to: block.end_date, now }),
    ([stock]) => new Map((stock?.nights ?? []).map((night) => [night.date, night.available]))
  )

/** The block as the inventory counts it. */
export const counted = (read: BlockRead): Blocks.CountedBlock => ({ status: read.block.status, nights: read.nights })
