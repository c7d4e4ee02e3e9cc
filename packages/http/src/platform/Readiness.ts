import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"

/**
 * Whether this process still wants new work. A stop turns it off before anything else, so `GET /health/ready`
 * answers 503 while the server still serves: a balancer checking it stops sending here before the listener
 * closes (docs/operations.md, stopping).
 */
export class Readiness extends Context.Service<Readiness, {
  readonly stopping: Effect.Effect<boolean>
  /** From now on the readiness check fails; there is no way back (a stopping process only stops). */
  readonly stop: Effect.Effect<void>
}>()("@hotel/http/platform/Readiness") {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.map(Ref.make(false), (stopping) => ({ stopping: Ref.get(stopping), stop: Ref.set(stopping, true) }))
  )
}
