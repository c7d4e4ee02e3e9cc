import * as Effect from "effect/Effect"
import * as References from "effect/References"
import type * as Tracer from "effect/Tracer"

const noStackTrace = { captureStackTrace: false } as const

/**
 * `Effect.withSpan` without the call site's stack trace, and nothing at all while tracing is off. A span is
 * named `Service.method`, which already says where it comes from, while capturing the call site builds an
 * `Error` on every call, traced or not. With the tracer off (`OTEL_EXPORTER_OTLP_ENDPOINT` unset, or
 * `Effect.withTracerEnabled(false)`) `Effect.withSpan` would still make a span no one receives.
 */
export const withSpan = (name: string, options?: Tracer.SpanOptionsNoTrace) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) =>
    fiber.getRef(References.TracerEnabled)
      ? Effect.withSpan(self, name, options === undefined ? noStackTrace : { ...options, ...noStackTrace })
      : self)
