import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import type * as Tracer from "effect/Tracer"

const noStackTrace = { captureStackTrace: false } as const

/**
 * `Effect.withSpan` without the call site's stack trace, and nothing at all while tracing is off. A span is
 * named `Service.method`, which already says where it comes from, while capturing the call site builds an
 * `Error` on every call, traced or not (the server's CPU profiles showed it on every request). With the tracer
 * off (`OTEL_EXPORTER_OTLP_ENDPOINT` unset) `Effect.withSpan` would still make a no-op span and copy the
 * fiber's whole context to carry it: a cost on every call for a span no one receives.
 */
export const withSpan = (name: string, options?: Omit<Tracer.SpanOptions, "captureStackTrace">) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  // One step of the run loop where `FiberRef.get` and `flatMap` take three: it wraps every service call.
  Effect.withFiberRuntime((fiber) =>
    fiber.getFiberRef(FiberRef.currentTracerEnabled)
      ? Effect.withSpan(self, name, options === undefined ? noStackTrace : { ...options, ...noStackTrace })
      : self)
