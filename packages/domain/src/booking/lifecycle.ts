// Reservation states and the booking flow's transitions. A hold is live while
// `now < hold_expires_at`; from that instant it is an expired hold, whatever the stored status says until the
// sweeper writes it down (`cancelled` / `hold_expired`).
import * as Result from "effect/Result"
import { HoldExpired, NotCancellable, NotConfirmable } from "../errors/BusinessErrors.js"

export type ReservationStatus = "tentative" | "confirmed" | "checked_in" | "checked_out" | "cancelled" | "no_show"

/** The hold window. */
export const holdWindowMs = 15 * 60_000

export const holdExpiresAt = (now: Date): Date => new Date(now.getTime() + holdWindowMs)

/** The cancellation reason of a hold whose window lapsed. */
export const holdExpiredReason = "hold_expired"

/** The cancellation reason stored when a cancel gives none. */
export const defaultCancellationReason = "cancelled"

export interface StatusFacts {
  /** The stored status. */
  readonly status: string
  readonly holdExpiresAt: Date | null
}

/** A hold's facts with why it was cancelled, when it was: an expired hold stays one after the sweeper wrote it down. */
export interface HoldFacts extends StatusFacts {
  readonly cancellationReason: string | null
}

/** A tentative reservation whose window has passed (a hold without a deadline never counted). */
export const isExpiredHold = (facts: StatusFacts, now: Date): boolean =>
  facts.status === "tentative" && (facts.holdExpiresAt === null || facts.holdExpiresAt.getTime() <= now.getTime())

/** A tentative reservation still inside its window: exactly the tentative ones that are not expired. */
export const isLiveHold = (facts: StatusFacts, now: Date): boolean =>
  facts.status === "tentative" && facts.holdExpiresAt !== null && facts.holdExpiresAt.getTime() > now.getTime()

/** The status a reader sees: an expired hold is `cancelled`. */
export const effectiveStatus = (facts: StatusFacts, now: Date): string =>
  isExpiredHold(facts, now) ? "cancelled" : facts.status

export type ConfirmStep = "confirm" | "already_confirmed"

/**
 * `POST /holds/{id}/confirm` from the stored state: a live hold is confirmed; a confirmed reservation answers
 * its existing result (`already_confirmed`, whatever reference is sent); an expired hold is `hold_expired`, before
 * and after the sweeper writes it down as cancelled with reason `hold_expired`; anything else (cancelled,
 * checked in or out, no-show) is `not_confirmable`.
 */
export const confirmStep = (facts: HoldFacts, now: Date): Result.Result<ConfirmStep, HoldExpired | NotConfirmable> => {
  if (facts.status === "confirmed") return Result.succeed("already_confirmed")
  const sweptHold = facts.status === "cancelled" && facts.cancellationReason === holdExpiredReason
  if (isExpiredHold(facts, now) || sweptHold) {
    return Result.fail(new HoldExpired({ message: "The 15-minute hold window has lapsed; create a fresh hold" }))
  }
  if (facts.status === "tentative") return Result.succeed("confirm")
  return Result.fail(
    new NotConfirmable({ message: `A reservation that is ${facts.status} is not a confirmable tentative hold` })
  )
}

export type CancelStep = "cancel_hold" | "cancel_confirmed"

/**
 * `POST /reservations/{id}/cancel` from the stored state: a live hold or a confirmed reservation is cancelled;
 * an expired hold, a cancelled, checked-in, checked-out or no-show reservation is `not_cancellable`.
 */
export const cancelStep = (facts: StatusFacts, now: Date): Result.Result<CancelStep, NotCancellable> => {
  if (isExpiredHold(facts, now)) {
    return Result.fail(new NotCancellable({ message: "The hold has already expired; its inventory is released" }))
  }
  if (facts.status === "tentative") return Result.succeed("cancel_hold")
  if (facts.status === "confirmed") return Result.succeed("cancel_confirmed")
  const status = facts.status.replace("_", " ")
  return Result.fail(new NotCancellable({ message: `A reservation that is ${status} cannot be cancelled` }))
}
