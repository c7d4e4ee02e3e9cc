import { expect, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { holdBody, newGuest } from "../utils/booking.js"
import type { ErrorBody } from "../utils/http.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// A statement that hits a connection bound answers 503 `database_busy` with `Retry-After`,
// never a 500, and changes nothing: the server runs with a 300 ms lock timeout while the test holds the
// room type's row lock in a transaction of its own, as a long writer would.

const lockTimeout = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HOTEL_DB_LOCK_TIMEOUT_MS: "300" } }), { asPrimary: true })

const BusyApiLive = TestApiLive.pipe(Layer.provide(lockTimeout))

layer(BusyApiLive, { excludeTestServices: true })("faults: a busy database", (it) => {
  it.effect("a hold that waits past the lock timeout is 503 database_busy with Retry-After; its key stays free", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const body = holdBody(api, guest)
      const headers = { "Idempotency-Key": `busy-${guest}` }
      const refused = yield* api.sql.withTransaction(Effect.gen(function*() {
        yield* api.sql`SELECT id FROM room_types WHERE id = ${api.property.room_types["DBL"]} FOR UPDATE`
        return yield* api.post("/holds", body, { headers })
      })).pipe(Effect.orDie)
      expect(refused.status, refused.text).toBe(503)
      expect(refused.json<ErrorBody>().error).toMatchObject({ type: "server", code: "database_busy" })
      expect(refused.headers.get("retry-after")).toBe("1")
      const made = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM reservations WHERE guest_id = ${guest}`
      expect(made[0]?.n).toBe(0)

      // The lock is gone: the retry with the same key runs (nothing was stored for it) and succeeds.
      const keyed = yield* api.clientFor(api.key, { headers })
      const [, retried] = yield* keyed.holds.create({ headers: {}, payload: body, responseMode: "decoded-and-response" })
      expect(retried.status).toBe(201)
      expect(retried.headers["idempotent-replayed"]).toBeUndefined()
    }))
})
