import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import * as Clock from "effect/Clock"
import { expect, it } from "@effect/vitest"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Argument from "effect/cli/Argument"

export class Greeter extends Context.Service<Greeter>()("Greeter", {
  make: Effect.gen(function*() {
    return { greet: (n: string) => Effect.succeed(`hi ${n}`) } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
export const program = Effect.gen(function*() {
  const g = yield* Greeter
  return yield* g.greet("x")
}).pipe(Effect.provide(Greeter.layer))

it.effect("clock", () => Effect.gen(function*() {
  yield* TestClock.adjust("1 second")
  expect(yield* Clock.currentTimeMillis).toBe(1000)
}))

const file = Argument.String("file")
const dry = Flag.Boolean("dry-run")
export const cmd = Command.make("import", { file, dry }, ({ file, dry }) => Effect.log(file, dry))
