import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
const r: Result.Result<number, string> = Result.succeed(1)
export const p = Effect.gen(function*() {
  const a = yield* Effect.fromResult(r)
  const b = yield* Effect.fromOption(Option.some(2))
  return a + b
})
// effect 4.1: a Result is not yieldable in Effect.gen (the rc migration guide says it is).
// @ts-expect-error Result is not an Effect
export const q = Effect.gen(function*() {
  const a = yield* r
  return a
})
Effect.runPromise(p).then(console.log)
