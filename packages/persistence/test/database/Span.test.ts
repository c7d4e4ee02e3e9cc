import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { withSpan } from "../../src/database/Span.js"

// A service's span while tracing is on; nothing at all while it is off (no no-op span, no context copy).
const spanName = Effect.currentSpan.pipe(Effect.map((span) => span.name), Effect.option)

describe("withSpan", () => {
  it.effect("names the span `Service.method` while tracing is on", () =>
    Effect.gen(function*() {
      expect(yield* spanName.pipe(withSpan("Holds.create"))).toEqual(Option.some("Holds.create"))
    }))

  it.effect("makes no span while tracing is off: the caller's span, if any, stays current", () =>
    Effect.gen(function*() {
      expect(yield* spanName.pipe(withSpan("Holds.create"), Effect.withTracerEnabled(false))).toEqual(Option.none())
      const inner = spanName.pipe(withSpan("Holds.create"), Effect.withTracerEnabled(false))
      expect(yield* inner.pipe(Effect.withSpan("outer"))).toEqual(Option.some("outer"))
    }))
})
