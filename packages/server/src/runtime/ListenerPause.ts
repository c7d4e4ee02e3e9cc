import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Net from "node:net"

/**
 * Once the drain delay is over, the longest a listener waits for a pause between connections: connections
 * still coming in a steady stream mean the delay was too short for the balancer, and the stop goes on.
 */
export const pauseTimeout = Duration.seconds(1)

/** Repeats `step` until it answers true. */
export const until = (step: Effect.Effect<boolean>) => Effect.repeat(step, { until: (done) => done })

/**
 * `act` in the check phase of the event loop, right after a poll phase: what the kernel and the IPC channels
 * held by then (connections, request bytes, messages) has been taken in, even when the loop was too busy for
 * the timer before it to fire on time.
 */
export const afterPoll = <A>(act: () => A) =>
  Effect.callback<A>((resume) => {
    const immediate = setImmediate(() => resume(Effect.succeed(act())))
    return Effect.sync(() => clearImmediate(immediate))
  })

/**
 * Closes `listener` in the first pause of 50 ms without a new connection, right after a poll phase took in any
 * there was: the kernel resets the connections it completed that the process has not accepted yet, so a close
 * while they arrive would drop them. Connections still coming `pauseTimeout` later close it anyway (right after
 * a poll too, when the fewest are waiting), with a warning. `connections` counts the connections accepted so far.
 */
export const closeInPause = (listener: Net.Server, connections: () => number) =>
  Effect.gen(function*() {
    // `net.Server#close` stops listening only; an HTTP server's own `close` would also drop its idle kept-alive
    // connections, on which a client may have just sent its next request.
    const close = () => {
      if (listener.listening) Net.Server.prototype.close.call(listener)
    }
    // Each look ends on its own, within 50 ms and a turn of the event loop: nothing here waits on a client.
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(pauseTimeout)
    const look = Effect.suspend(() => {
      const seen = connections()
      return Effect.andThen(Effect.sleep("50 millis"), Clock.currentTimeMillis).pipe(
        Effect.flatMap((now) =>
          afterPoll(() => {
            const quiet = connections() === seen
            if (quiet || now >= deadline) close()
            // Some(whether in a pause) once closed.
            return quiet ? Option.some(true) : now >= deadline ? Option.some(false) : Option.none()
          })
        )
      )
    })
    const closed = yield* Effect.repeat(look, { until: Option.isSome })
    if (Option.contains(closed, false)) {
      yield* Effect.logWarning(
        `Shutdown: connections still coming ${Duration.format(pauseTimeout)} after the drain delay; ` +
          "listener closed anyway (is HOTEL_DRAIN_DELAY_MS shorter than the balancer takes to stop sending?)"
      )
    }
  })
