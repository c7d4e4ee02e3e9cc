import { expect, layer } from "@effect/vitest"
import { PlatformInMemory } from "@hotel/persistence/Platform"
import * as Effect from "effect/Effect"
import { ProbeHttpLive } from "./utils/ProbeApi.js"
import { TestApi, TestApiLive, makeTestApiLive } from "./utils/TestServer.js"

for (const [name, live] of [["pg", TestApiLive], ["mem", makeTestApiLive(ProbeHttpLive(PlatformInMemory))]] as const) {
  layer(live, { excludeTestServices: true })(name, (it) => {
    it.effect("burst", () =>
      Effect.gen(function*() {
        const api = yield* TestApi
        const key = yield* api.createKey()
        const started = Date.now()
        for (let b = 0; b < 20; b++) {
          yield* Effect.all(Array.from({ length: 25 }, () => api.get("/me", { key })), { concurrency: "unbounded" })
        }
        console.error(name, "500 requests in", Date.now() - started, "ms")
        expect(1).toBe(1)
      }), { timeout: 120_000 })
  })
}
