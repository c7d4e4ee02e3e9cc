// The rules of a booking of several rooms that are not a hold's own: every room is checked by the hold's rules,
// and these say how a room's refusal reads for the booking, how the rooms count against the live-hold caps,
// that they price in one currency, whether the booking may be confirmed, and the stay and total it reads as.
import * as Arr from "effect/Array"
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import { CurrencyMismatch, HoldExpired, NotConfirmable } from "../errors/BusinessErrors.js"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import type { LiveHolds } from "./holdLimits.js"
import type { IsoDate } from "../quotes/dates.js"
import { type ConfirmStep, confirmStep, type HoldFacts } from "./lifecycle.js"

/** Fields of a hold that are the booking's, not a room's: their `param` is not scoped to a room. */
const bookingFields: ReadonlySet<string> = new Set(["check_in", "check_out", "guest_id"])

/** How room `index` is named in a refusal: `rooms[2]`. */
export const roomPath = (index: number) => `rooms[${index}]`

interface Refusal {
  readonly _tag: string
  readonly message: string
  readonly param?: string | undefined
}

/**
 * A hold's refusal as the booking's: a field of the room is named with its room (`param` `rooms[1].adults`,
 * the message too); a refusal without a `param` (404, 409, `party_too_large`) says which room in its message.
 * The booking's own fields (the guest, the stay) keep their names. Same class, so the same status and code.
 */
export const inRoom = <E extends Refusal>(index: number, error: E): E => {
  const make = error.constructor as new(fields: { readonly message: string; readonly param?: string }) => E
  if (error.param !== undefined && bookingFields.has(error.param)) return error
  if (error.param !== undefined) {
    const param = `${roomPath(index)}.${error.param}`
    return new make({ message: error.message.startsWith(error.param) ? `${roomPath(index)}.${error.message}` : `${param}: ${error.message}`, param })
  }
  if (error._tag === "GuestNotFound") return error
  return new make({ message: `${roomPath(index)}: ${error.message}` })
}

/** The live holds room `index` of a booking is decided on: each earlier room of it is one more live hold. */
export const liveHoldsForRoom = (live: LiveHolds, index: number): LiveHolds => ({
  guest: live.guest + index,
  apiKey: live.apiKey + index,
  apiKeyMax: live.apiKeyMax
})

/** Every room prices in the first room's currency; the first other one is 400 on its `rate_plan_id`. */
export const checkOneCurrency = (currencies: ReadonlyArray<string>): Result.Result<void, CurrencyMismatch> => {
  const first = currencies[0]
  const other = currencies.findIndex((currency) => currency !== first)
  if (other < 0) return Result.void
  return Result.fail(new CurrencyMismatch({
    message: `${roomPath(other)}.rate_plan_id prices in ${currencies[other]}, the booking's other rooms in ${first}`,
    param: `${roomPath(other)}.rate_plan_id`
  }))
}

/**
 * Whether a booking may be confirmed, from its reservations' states (in room order): every one a live hold is
 * a confirm; every one confirmed answers the existing result. Once one of them is an expired hold the booking's
 * confirm is `hold_expired`; else once one is anything but a live hold or confirmed, `not_confirmable`.
 */
export const bookingConfirmStep = (
  rooms: ReadonlyArray<HoldFacts>,
  now: Date
): Result.Result<ConfirmStep, HoldExpired | NotConfirmable> => {
  const steps = rooms.map((room) => confirmStep(room, now))
  const expired = steps.find((step) => Result.isFailure(step) && step.failure._tag === "HoldExpired")
  if (expired !== undefined && Result.isFailure(expired)) return Result.fail(expired.failure)
  const refused = steps.findIndex(Result.isFailure)
  if (refused >= 0) {
    return Result.fail(new NotConfirmable({
      message: `${roomPath(refused)}: the reservation is ${rooms[refused].status}, so the booking cannot be confirmed`
    }))
  }
  const confirmed = steps.filter((step) => Result.isSuccess(step) && step.success === "already_confirmed").length
  if (confirmed === steps.length) return Result.succeed("already_confirmed")
  if (confirmed === 0) return Result.succeed("confirm")
  return Result.fail(new NotConfirmable({ message: "Some rooms of the booking are confirmed and others are not" }))
}

/** A reservation of a booking is paid only with its booking: `POST /holds/{id}/confirm` refuses it. */
export const checkConfirmableAlone = (bookingId: string | null): Result.Result<void, NotConfirmable> =>
  bookingId === null ? Result.void : Result.fail(new NotConfirmable({
    message: `The reservation is part of booking ${bookingId}; confirm it with POST /bookings/${bookingId}/confirm`
  }))

/** The booking's total: the sum of its rooms' totals. */
export const bookingTotal = (totals: ReadonlyArray<Amount>): Amount =>
  totals.reduce((sum, total) => BigDecimal.sum(sum, total), Money.zero)

/** A room of a booking as it reads now (an expired hold reads cancelled). */
export interface BookedRoom {
  /** A `ReservationStatus`, as read. */
  readonly status: string
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  readonly total: Amount
}

/** The stay a booking reads as. */
export interface BookingStay {
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  readonly total: Amount
}

/**
 * What a booking says of its rooms, following every change of them: its reservations that are not cancelled
 * (all of them once every one is), the earliest check-in, the latest check-out and the sum of their totals.
 */
export const bookingStay = (rooms: Arr.NonEmptyReadonlyArray<BookedRoom>): BookingStay => {
  const live = rooms.filter((room) => room.status !== "cancelled")
  const counted = Arr.isReadonlyArrayNonEmpty(live) ? live : rooms
  return {
    checkIn: Arr.reduce(counted, Arr.headNonEmpty(counted).checkIn, (first, room) => (room.checkIn < first ? room.checkIn : first)),
    checkOut: Arr.reduce(counted, Arr.headNonEmpty(counted).checkOut, (last, room) => (room.checkOut > last ? room.checkOut : last)),
    total: bookingTotal(counted.map((room) => room.total))
  }
}
