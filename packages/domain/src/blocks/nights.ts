// The nights of a block: what a create or a PATCH sets on each, checked against the range and the room type's
// rooms, and what each night has left. Pure: the service reads the stored nights (units, picked up, released)
// and writes what these functions decide.
import * as Result from "effect/Result"
import { BlockInUse, NoAvailability } from "../errors/BusinessErrors.js"
import type { InvalidParameters } from "../errors/RequestErrors.js"
import type { IsoDate } from "../quotes/dates.js"
import { type Check, fail, nightRange } from "../rates/checks.js"
import { type BlockNight, type BlockStatus, maxBlockNights } from "./requests.js"

/**
 * A night as stored and counted: its units, the live pickups covering it, whether its release has passed, and
 * the units it still sets aside, as the inventory count reckons them (persistence `remainingUnits`: units −
 * pickups, never below zero, none once released).
 */
export interface NightState {
  readonly date: IsoDate
  readonly units: number
  /** Live pickups (live holds, confirmed, checked in) of the block covering the night. */
  readonly pickups: number
  readonly released: boolean
  readonly remaining: number
}

/** Rooms picked up from the block's units on the night (pickups beyond the units took general inventory). */
export const pickedUp = (night: NightState): number => Math.min(night.units, night.pickups)

/** The nights of `[start, end)`; 400 on `end_date` for an empty or too long range. */
export const rangeNights = (start: IsoDate, end: IsoDate): Check<ReadonlyArray<IsoDate>> =>
  nightRange(start, end, maxBlockNights, `a block may cover at most ${maxBlockNights} nights`)

/** Listed nights: each inside the range, once, at most the type's rooms. Answers them by date. */
const listedNights = (
  nights: ReadonlyArray<BlockNight>,
  range: ReadonlyArray<IsoDate>,
  rooms: number
): Check<ReadonlyMap<IsoDate, number>> => {
  const inRange = new Set(range)
  const byDate = new Map<IsoDate, number>()
  for (const [i, night] of nights.entries()) {
    if (!inRange.has(night.date)) return fail(`nights[${i}].date`, "must be a night of the block's range")
    if (byDate.has(night.date)) return fail(`nights[${i}].date`, "lists a night already listed")
    if (night.units > rooms) return fail(`nights[${i}].units`, `must be at most the room type's ${rooms} rooms`)
    byDate.set(night.date, night.units)
  }
  return Result.succeed(byDate)
}

const unitsAtMost = (units: number, rooms: number): Check<number> =>
  units > rooms ? fail("units", `must be at most the room type's ${rooms} rooms`) : Result.succeed(units)

/** Exactly one of `units` and `nights`, named `units` when both or neither are sent. */
const oneOf = (input: { readonly units?: number | undefined; readonly nights?: ReadonlyArray<BlockNight> | undefined }) =>
  (input.units === undefined) === (input.nights === undefined)
    ? fail("units", "send exactly one of units and nights")
    : Result.void

/**
 * A new block's nights: `units` on every night of the range, or `nights` listing every night of it once.
 * Field order: the range (`end_date`), then `units`/`nights`.
 */
export const plannedNights = (
  input: {
    readonly start_date: IsoDate
    readonly end_date: IsoDate
    readonly units?: number | undefined
    readonly nights?: ReadonlyArray<BlockNight> | undefined
  },
  rooms: number
): Check<ReadonlyArray<{ readonly date: IsoDate; readonly units: number }>> =>
  Result.gen(function*() {
    const range = yield* rangeNights(input.start_date, input.end_date)
    yield* oneOf(input)
    if (input.units !== undefined) {
      const units = yield* unitsAtMost(input.units, rooms)
      return range.map((date) => ({ date, units }))
    }
    const listed = yield* listedNights(input.nights ?? [], range, rooms)
    if (listed.size !== range.length) return yield* fail("nights", "must list every night of the block's range once")
    return range.map((date) => ({ date, units: listed.get(date) ?? 0 }))
  })

/**
 * A PATCH's new units: `units` on every night, `nights` only on the dates listed; none when it sends neither.
 * Lowering a night below what is picked up there is 409 `block_in_use`.
 */
export const patchedNights = (
  patch: { readonly units?: number | undefined; readonly nights?: ReadonlyArray<BlockNight> | undefined },
  stored: ReadonlyArray<NightState>,
  rooms: number
): Result.Result<ReadonlyArray<{ readonly date: IsoDate; readonly units: number }>, InvalidParameters | BlockInUse> =>
  Result.gen(function*() {
    if (patch.units === undefined && patch.nights === undefined) return []
    yield* oneOf(patch)
    const range = stored.map((night) => night.date)
    const wanted: ReadonlyMap<IsoDate, number> = patch.units !== undefined
      ? new Map(range.map((date) => [date, patch.units ?? 0]))
      : yield* listedNights(patch.nights ?? [], range, rooms)
    if (patch.units !== undefined) yield* unitsAtMost(patch.units, rooms)
    const changes = stored.flatMap((night) => {
      const units = wanted.get(night.date)
      return units === undefined || units === night.units ? [] : [{ date: night.date, units, night }]
    })
    const short = changes.find((change) => change.units < pickedUp(change.night))
    if (short !== undefined) {
      return yield* Result.fail(new BlockInUse({
        message: `${short.date} has ${pickedUp(short.night)} rooms picked up; its units cannot go below that`
      }))
    }
    return changes.map(({ date, units }) => ({ date, units }))
  })

/**
 * A definite block taking more rooms (created definite, confirmed, raised): each night needs as many rooms free
 * for general sale as the units it adds to what is set aside; else 409 `no_availability`, nothing changes.
 */
export const checkRoomsFree = (
  nights: ReadonlyArray<{ readonly date: IsoDate; readonly needed: number; readonly free: number }>
): Result.Result<void, NoAvailability> => {
  const short = nights.find((night) => night.needed > 0 && night.free < night.needed)
  return short === undefined ? Result.void : Result.fail(new NoAvailability({
    message: `Only ${Math.max(0, short.free)} rooms are free on ${short.date}; the block needs ${short.needed} more`
  }))
}

/** A block as the inventory counts it: only a definite block sets anything aside. */
export interface CountedBlock {
  readonly status: BlockStatus
  readonly nights: ReadonlyArray<NightState>
}

/** What the block sets aside on each of its nights (0 unless definite). */
export const setAside = (block: CountedBlock): ReadonlyMap<IsoDate, number> =>
  new Map(block.nights.map((night) => [night.date, block.status === "definite" ? night.remaining : 0]))

/**
 * The rooms a change of a block takes from general sale on each night: what it sets aside after the change
 * minus before (a new block sets nothing aside before). Only nights where it takes more are listed.
 */
export const roomsTaken = (
  before: CountedBlock | null,
  after: CountedBlock
): ReadonlyArray<{ readonly date: IsoDate; readonly needed: number }> => {
  const was = before === null ? new Map<IsoDate, number>() : setAside(before)
  return [...setAside(after)].flatMap(([date, units]) => {
    const needed = units - (was.get(date) ?? 0)
    return needed > 0 ? [{ date, needed }] : []
  })
}
