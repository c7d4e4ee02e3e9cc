import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/**
 * `effect` for at most `duration`: its value, or none once the time is up, even in a finalizer. A stop runs in
 * finalizers, which are uninterruptible, and there `Effect.timeout` cannot end what it bounds: it waits for it to
 * end by itself (a request body trickling in for half a minute held a stopping server that long). So the bounded
 * effect is made interruptible; it must leave nothing half-done when interrupted between two of its steps.
 */
export const atMost = (duration: Duration.Input) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.timeoutOption(Effect.interruptible(effect), duration)
