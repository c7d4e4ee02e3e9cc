// What a change asks for, resolved against the reservation as it stands: the stay it would have (every field
// left out keeps its value), which fields differ, and who may change which of them by status.
import * as Result from "effect/Result"
import { HoldExpired, NotModifiable } from "../errors/BusinessErrors.js"
import { InvalidParameters } from "../errors/RequestErrors.js"
import { holdExpiredReason, type HoldFacts, isExpiredHold } from "../booking/lifecycle.js"
import { addDays, type IsoDate } from "../quotes/dates.js"
import { validateStay } from "../quotes/stay.js"

/** A reservation's changeable terms. */
export interface StayTerms {
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  readonly adults: number
  readonly children: number
  readonly childAges: ReadonlyArray<number> | null
  readonly promoCode: string | null
  readonly specialNotes: string | null
}

/** The fields a change sends; `undefined` keeps the current value, `null` clears a clearable one. */
export interface ChangeRequest {
  readonly checkIn?: IsoDate | undefined
  readonly checkOut?: IsoDate | undefined
  readonly roomTypeId?: string | undefined
  readonly ratePlanId?: string | undefined
  readonly adults?: number | undefined
  readonly children?: number | undefined
  readonly childAges?: ReadonlyArray<number> | null | undefined
  readonly promoCode?: string | null | undefined
  readonly specialNotes?: string | null | undefined
}

export type ChangeField =
  | "check_in" | "check_out" | "room_type_id" | "rate_plan_id" | "adults" | "children" | "promo_code" | "special_notes"

/** The terms after the change. `child_ages`, when sent, decides `children`; a new count alone forgets the ages. */
export const resolveTarget = (current: StayTerms, change: ChangeRequest): StayTerms => {
  const childAges = change.childAges !== undefined
    ? change.childAges
    : change.children !== undefined && change.children !== current.children
    ? null
    : current.childAges
  const children = childAges !== null ? childAges.length : change.children ?? current.children
  const promo = change.promoCode === undefined ? current.promoCode : change.promoCode
  return {
    roomTypeId: change.roomTypeId ?? current.roomTypeId,
    ratePlanId: change.ratePlanId ?? current.ratePlanId,
    checkIn: change.checkIn ?? current.checkIn,
    checkOut: change.checkOut ?? current.checkOut,
    adults: change.adults ?? current.adults,
    children,
    childAges,
    promoCode: promo === "" ? null : promo,
    specialNotes: change.specialNotes === undefined ? current.specialNotes : change.specialNotes
  }
}

const sameAges = (a: ReadonlyArray<number> | null, b: ReadonlyArray<number> | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((age, i) => age === b[i])

/** Whether two parties are the same guests (the count and, when known, the children's ages). */
export const sameParty = (a: StayTerms, b: StayTerms): boolean =>
  a.adults === b.adults && a.children === b.children && sameAges(a.childAges, b.childAges)

const samePromo = (a: string | null, b: string | null) => (a ?? "").toUpperCase() === (b ?? "").toUpperCase()

/** The fields whose value the change alters, in the order of the body. */
export const changedFields = (current: StayTerms, target: StayTerms): ReadonlyArray<ChangeField> => {
  const changed: Array<ChangeField> = []
  if (current.checkIn !== target.checkIn) changed.push("check_in")
  if (current.checkOut !== target.checkOut) changed.push("check_out")
  if (current.roomTypeId !== target.roomTypeId) changed.push("room_type_id")
  if (current.ratePlanId !== target.ratePlanId) changed.push("rate_plan_id")
  if (current.adults !== target.adults) changed.push("adults")
  if (!sameParty({ ...current, adults: target.adults }, target)) changed.push("children")
  if (!samePromo(current.promoCode, target.promoCode)) changed.push("promo_code")
  if (current.specialNotes !== target.specialNotes) changed.push("special_notes")
  return changed
}

/** Whether the change touches what the visibility rule judges (room type, plan, a date, the party, the code). */
export const needsVisibility = (changed: ReadonlyArray<ChangeField>): boolean =>
  changed.some((field) => field !== "special_notes")

export type ChangeStep = "hold" | "confirmed" | "checked_in"

/**
 * Who may change a reservation: a live hold, a confirmed or a checked-in one. An expired hold (before or after
 * the sweeper wrote it down) is 409 `hold_expired`; cancelled, checked out or no-show is 409 `not_modifiable`.
 */
export const changeStep = (facts: HoldFacts, now: Date): Result.Result<ChangeStep, HoldExpired | NotModifiable> => {
  const sweptHold = facts.status === "cancelled" && facts.cancellationReason === holdExpiredReason
  if (isExpiredHold(facts, now) || sweptHold) {
    return Result.fail(new HoldExpired({ message: "The 15-minute hold window has lapsed; create a fresh hold" }))
  }
  if (facts.status === "tentative") return Result.succeed("hold")
  if (facts.status === "confirmed" || facts.status === "checked_in") return Result.succeed(facts.status)
  const status = facts.status.replace("_", " ")
  return Result.fail(new NotModifiable({ message: `A reservation that is ${status} cannot be changed` }))
}

const checkedInFields: ReadonlyArray<ChangeField> = ["check_out", "special_notes"]

/**
 * The field rules of the changed stay: a checked-in stay may only move its check-out (to the property's
 * tomorrow or later) and its notes (409 `not_modifiable` naming the field); every stay obeys a hold's field
 * rules, except that a check-in in the past is allowed when it is unchanged.
 */
export const checkChange = (
  step: ChangeStep,
  current: StayTerms,
  target: StayTerms,
  today: IsoDate,
  changed: ReadonlyArray<ChangeField> = changedFields(current, target)
): Result.Result<void, NotModifiable | InvalidParameters> => {
  if (step === "checked_in") {
    const refused = changed.find((field) => !checkedInFields.includes(field))
    if (refused !== undefined) {
      return Result.fail(new NotModifiable({ message: `A checked-in stay may only change check_out and special_notes, not ${refused}` }))
    }
    if (changed.includes("check_out") && target.checkOut < addDays(today, 1)) {
      return Result.fail(new InvalidParameters({
        message: `check_out of a checked-in stay must be the property's tomorrow (${addDays(today, 1)}) or later`,
        param: "check_out"
      }))
    }
  }
  const keptArrival = target.checkIn === current.checkIn
  return validateStay(
    { checkIn: target.checkIn, checkOut: target.checkOut, party: { adults: target.adults } },
    keptArrival && target.checkIn < today ? target.checkIn : today
  )
}

/** The refusals of a change about the reservation itself rather than the stay asked for. */
export type ChangeRefusal = HoldExpired | NotModifiable
