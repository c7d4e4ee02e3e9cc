import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** The signals that stop a server gracefully (`NodeRuntime.runMain` turns either into an interruption). */
export type StopSignal = "SIGTERM" | "SIGINT"

/**
 * Listens, for the life of the scope, for the first SIGTERM or SIGINT; `onSignal` runs the moment it arrives
 * (before the interruption reaches any finalizer). Answers the signal received so far, if any. The stop
 * itself is `runMain`'s: this only tells a finalizer why it runs, since SIGTERM (an orchestrator, `docker
 * stop`) and SIGINT (a Ctrl-C in a terminal) call for different stops.
 */
export const firstStopSignal = <R>(onSignal: (signal: StopSignal) => Effect.Effect<void, never, R>) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<R>()
    let received = Option.none<StopSignal>()
    const listen = (signal: StopSignal) => () => {
      if (Option.isSome(received)) return
      received = Option.some(signal)
      Effect.runSyncWith(context)(onSignal(signal))
    }
    const onTerm = listen("SIGTERM")
    const onInt = listen("SIGINT")
    yield* Effect.acquireRelease(
      // First among the signal's listeners: the runtime's own (`runMain`'s) interrupts the program at once, and
      // the finalizers it starts ask which signal came before this process would otherwise have heard it.
      Effect.sync(() => {
        process.prependListener("SIGTERM", onTerm)
        process.prependListener("SIGINT", onInt)
      }),
      () =>
        Effect.sync(() => {
          process.off("SIGTERM", onTerm)
          process.off("SIGINT", onInt)
        })
    )
    return Effect.sync(() => received)
  })
