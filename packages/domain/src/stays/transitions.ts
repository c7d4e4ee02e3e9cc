// Transitions beyond the contract: check-in, check-out and no-show. "Today" is the property's
// local date, from `Clock`. Anything not listed here is 409 `invalid_status_transition`:
//
// | action    | from        | when                                                        | to          |
// |-----------|-------------|-------------------------------------------------------------|-------------|
// | check-in  | `confirmed` | arrival date <= today < departure date                      | `checked_in`  |
// | check-out | `checked_in`| any day (an early departure is a check-out too)             | `checked_out` |
// | no-show   | `confirmed` | arrival date < today (the arrival date has passed)          | `no_show`     |
//
// A hold (live or expired) is never checked in, out or marked a no-show: it must be confirmed first.
import * as Result from "effect/Result"
import { effectiveStatus, type StatusFacts } from "../booking/lifecycle.js"
import { InvalidStatusTransition } from "../errors/BusinessErrors.js"
import type { IsoDate } from "../quotes/dates.js"

export type StayAction = "check_in" | "check_out" | "no_show"

export type StayStatus = "checked_in" | "checked_out" | "no_show"

export interface StayFacts extends StatusFacts {
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
}

export const targetOf: Readonly<Record<StayAction, StayStatus>> = {
  check_in: "checked_in",
  check_out: "checked_out",
  no_show: "no_show"
}

const refuse = (message: string) => Result.fail(new InvalidStatusTransition({ message }))

const described = (status: string): string => (status === "tentative" ? "a tentative hold" : status.replace("_", " "))

/**
 * The status `action` leads to from the stored facts at `now` (today = the property's local date at `now`),
 * or 409 `invalid_status_transition` with the reason.
 */
export const stayStep = (
  action: StayAction,
  facts: StayFacts,
  now: Date,
  today: IsoDate
): Result.Result<StayStatus, InvalidStatusTransition> => {
  const status = effectiveStatus(facts, now)
  switch (action) {
    case "check_in": {
      if (status !== "confirmed") return refuse(`Only a confirmed reservation can be checked in; this one is ${described(status)}`)
      if (today < facts.checkIn) {
        return refuse(`Check-in opens on the arrival date ${facts.checkIn}; today at the property is ${today}`)
      }
      if (today >= facts.checkOut) {
        return refuse(`The stay ended on ${facts.checkOut}; today at the property is ${today}`)
      }
      return Result.succeed("checked_in")
    }
    case "check_out": {
      if (status !== "checked_in") return refuse(`Only a checked-in reservation can be checked out; this one is ${described(status)}`)
      return Result.succeed("checked_out")
    }
    case "no_show": {
      if (status !== "confirmed") {
        return refuse(`Only a confirmed reservation can be marked a no-show; this one is ${described(status)}`)
      }
      if (today <= facts.checkIn) {
        return refuse(`A no-show can be recorded once the arrival date ${facts.checkIn} has passed; today at the property is ${today}`)
      }
      return Result.succeed("no_show")
    }
  }
}
