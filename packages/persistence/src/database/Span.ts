import * as Effect from "effect/Effect"
import type * as Tracer from "effect/Tracer"

const noStackTrace = { captureStackTrace: false } as const

/**
 * `Effect.withSpan` without the call site's stack trace. A span is named `Service.method`, which already says
 * where it comes from, while capturing the call site builds an `Error` on every call, traced or not (the
 * server's CPU profiles showed it on every request).
 */
export const withSpan = (name: string, options?: Omit<Tracer.SpanOptions, "captureStackTrace">) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withSpan(self, name, options === undefined ? noStackTrace : { ...options, ...noStackTrace })
