import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"

// What happens to holds, as an operator counts it. Counted after the transaction commits, so a rolled-back
// write is never counted.

export const holdsCreated = Metric.counter("hotel_holds_created_total", {
  description: "Holds placed",
  incremental: true
})

export const holdsConfirmed = Metric.counter("hotel_holds_confirmed_total", {
  description: "Holds confirmed into reservations (a repeated confirmation is not counted)",
  incremental: true
})

export const holdsExpired = Metric.counter("hotel_holds_expired_total", {
  description: "Holds written down as expired by the sweeper",
  incremental: true
})

export const reservationsCancelled = Metric.counter("hotel_reservations_cancelled_total", {
  description: "Holds and reservations cancelled",
  incremental: true
})

const noAvailability = Metric.counter("hotel_no_availability_total", {
  description: "Holds and confirmations refused with no_availability",
  incremental: true
})

/** Counts a refusal for want of a room (`no_availability`); the failure itself passes through. */
export const countNoAvailability = <A, E extends { readonly _tag: string }, R>(self: Effect.Effect<A, E, R>) =>
  Effect.tapError(self, (error) => error._tag === "NoAvailability" ? Metric.update(noAvailability, 1) : Effect.void)
