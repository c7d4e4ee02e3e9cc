import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * A layer whose construction failure `f` turns into another error (a start-up failure an operator reads), built
 * as itself (memoised and shared like any layer) when it succeeds.
 */
export const mapLayerError = <E, E2>(f: (error: E) => E2) => <A, R>(self: Layer.Layer<A, E, R>): Layer.Layer<A, E2, R> =>
  Layer.catch(self, (error) => Layer.fromBuild<A, E2, never>(() => Effect.fail(f(error))))
