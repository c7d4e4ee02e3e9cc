import * as SqlClient from "effect/sql/SqlClient"
import { InvalidParameters, Inventory as Capacity, isUuid, Pricing, RoomTypeNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { type NightRow, nightRows } from "./inventorySql.js"
import { withSpan } from "../database/Span.js"

// Inventory: a room type's inventory is its rooms in service (not retired); a night of a room
// type is taken by every reservation of that type covering it (check_in_date <= night < check_out_date) that
// is a live hold (tentative and `now < hold_expires_at`), confirmed or checked in. `now` comes from the
// caller's `Clock`, never SQL `now()`, so an expired hold is free the instant it expires, job or no job.
// A definite block sets aside, on each of its nights not yet released (`block_night_released`, migration 0012),
// its remaining units (units − its live pickups covering the night): they are `blocked`, free for its own
// pickups only. A pickup beyond the block's units on a night is simply taken there (it took general inventory),
// so what a block set aside and what its pickups took is counted once, from the reservations alone.
// A night sells up to its capacity: min(rooms in service, sell limit) + overbooking (`night_capacity` in SQL,
// the one place it is computed); the statement is ./inventorySql.ts, the rules sale applies to its answer are
// the domain's (`Inventory.freeForSale`, `roomsToKeep`).

export interface NightInventory extends Capacity.NightSupply, Capacity.NightDemand {
  readonly date: Pricing.IsoDate
  /** min(rooms in service, sell limit) + overbooking. */
  readonly capacity: number
  /** Free for general sale: capacity − taken − blocked, never below zero. */
  readonly available: number
  /** Free for the query's pickup: `available` plus its own block's remaining units (`available` without one). */
  readonly availableToPickup: number
  /** What a live reservation not counted in `taken` may keep (the confirm's re-check, `Inventory.roomsToKeep`). */
  readonly availableToKeep: number
}

export interface RoomTypeInventory {
  readonly roomTypeId: string
  readonly rooms: number
  /** One entry per night of the range, in date order. */
  readonly nights: ReadonlyArray<NightInventory>
  /** The rooms free on every night of the range (0 for an empty range); for a pickup, `availableToPickup`. */
  readonly available: number
  /** The least `availableToKeep` over the range (0 for an empty range). */
  readonly availableToKeep: number
}

export interface InventoryQuery {
  /** One room type, or every room type of the property. */
  readonly roomTypeId?: string | null | undefined
  /** First night. */
  readonly from: Pricing.IsoDate
  /** The day after the last night, like a stay's check-out (`from` up to the night before `to`). */
  readonly to: Pricing.IsoDate
  /** The instant holds are judged at (from `Clock`). */
  readonly now: Date
  /** A reservation not to count (confirming a hold re-checks availability without the hold itself). */
  readonly excludeReservationId?: string | null | undefined
  /** A pickup's block: its remaining units are free for the query's stay (see `availableToPickup`). */
  readonly blockId?: string | null | undefined
  /**
   * The excluded reservation's overbooking of each night of the range when it took them (`held_overbooking`,
   * in date order; null for none recorded): with the other stays' own, what `availableToKeep` counts at least.
   */
  readonly heldOverbooking?: ReadonlyArray<number> | null | undefined
}


/** The longest `GET /availability` range, in nights. */
export const maxAvailabilityNights = 366

/**
 * Rows (room type × night, in room type then date order) grouped per room type. Runs for every night of every
 * quote, hold and count, so each object is one literal: on Node 20 an object spread followed by a property the
 * spread object lacks costs about a microsecond (see scripts/bench/README.md), which made this loop the
 * costliest step of a quote after its statements.
 */
const group = (rows: ReadonlyArray<NightRow>, held: ReadonlyArray<number> | null): ReadonlyArray<RoomTypeInventory> => {
  const byType = new Map<string, { rooms: number; nights: Array<NightInventory> }>()
  for (const row of rows) {
    const entry = byType.get(row.room_type_id) ?? { rooms: row.rooms, nights: [] }
    // Every night of the range has a row, in date order, so a night's place in the range is its index.
    const soldUnder = Math.max(row.sold_under, held?.[entry.nights.length] ?? 0)
    const free = Capacity.freeForSale({ capacity: row.capacity, taken: row.taken, blocked: row.blocked, own: row.own })
    const availableToKeep = Capacity.roomsToKeep({
      rooms: row.rooms,
      outOfOrder: row.out_of_order,
      sellLimit: row.sell_limit,
      overbooking: row.overbooking,
      taken: row.taken,
      blocked: row.blocked,
      own: row.own,
      soldUnder
    })
    entry.nights.push({
      date: row.date,
      rooms: row.rooms,
      outOfOrder: row.out_of_order,
      sellLimit: row.sell_limit,
      overbooking: row.overbooking,
      capacity: row.capacity,
      taken: row.taken,
      blocked: row.blocked,
      available: free.available,
      availableToPickup: free.availableToPickup,
      availableToKeep
    })
    byType.set(row.room_type_id, entry)
  }
  return Array.from(byType, ([roomTypeId, { nights, rooms }]) => ({
    roomTypeId,
    rooms,
    nights,
    available: nights.length === 0 ? 0 : Math.min(...nights.map((night) => night.availableToPickup)),
    availableToKeep: nights.length === 0 ? 0 : Math.min(...nights.map((night) => night.availableToKeep))
  }))
}

export class Inventory extends Context.Service<Inventory>()("@hotel/persistence/inventory/Inventory", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /**
     * Rooms and taken rooms per room type per night, in one query (a `generate_series` of the nights joined to
     * the reservations). Room types in catalogue order; an unknown room type (or one of another property)
     * yields no entry. Runs in the caller's transaction when inside `sql.withTransaction`.
     */
    const available = (propertyId: string, query: InventoryQuery): Effect.Effect<ReadonlyArray<RoomTypeInventory>> => {
      const roomTypeId = query.roomTypeId ?? null
      const exclude = query.excludeReservationId ?? null
      const blockId = query.blockId ?? null
      if (
        !isUuid(propertyId) || (roomTypeId !== null && !isUuid(roomTypeId)) ||
        (blockId !== null && !isUuid(blockId)) ||
        (exclude !== null && !isUuid(exclude)) || query.to <= query.from
      ) {
        // Nothing to count: an id that cannot name a row names none, and an empty range has no nights.
        return Effect.succeed([])
      }
      return nightRows(sql, propertyId, { roomTypeId, exclude, blockId, from: query.from, to: query.to, now: query.now }).pipe(
        Effect.map((rows) => group(rows, query.heldOverbooking ?? null)),
        Effect.orDie,
        withSpan("Inventory.available")
      )
    }

    /**
     * `GET /availability`: nights `startDate` to `endDate` INCLUSIVE, at most 366; a start
     * after the end (or too long a range) is 400 on `end_date`; an unknown room type is 404.
     */
    const calendar = (
      propertyId: string,
      query: {
        readonly startDate: Pricing.IsoDate
        readonly endDate: Pricing.IsoDate
        readonly roomTypeId?: string | null | undefined
        readonly now: Date
      }
    ): Effect.Effect<ReadonlyArray<RoomTypeInventory>, InvalidParameters | RoomTypeNotFound> =>
      Effect.gen(function*() {
        const nights = Pricing.daysBetween(query.startDate, query.endDate) + 1
        if (nights < 1) {
          return yield* new InvalidParameters({ message: "end_date must not be before start_date", param: "end_date" })
        }
        if (nights > maxAvailabilityNights) {
          return yield* new InvalidParameters({
            message: `The range may cover at most ${maxAvailabilityNights} nights`,
            param: "end_date"
          })
        }
        const result = yield* available(propertyId, {
          roomTypeId: query.roomTypeId,
          from: query.startDate,
          to: Pricing.addDays(query.endDate, 1),
          now: query.now
        })
        if (query.roomTypeId != null && result.length === 0) {
          return yield* new RoomTypeNotFound({ message: `No room type ${query.roomTypeId}` })
        }
        return result
      }).pipe(withSpan("Inventory.calendar"))

    return { available, calendar } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
