import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as SqlClient from "effect/sql/SqlClient"
import { DatabaseUrl } from "../../src/database/DatabaseUrl.js"
import { defaultHostBounds, type PoolSettings } from "../../src/database/PoolSettings.js"
import { sqlLayer } from "../../src/database/Sql.js"
import { onStandby } from "../../src/database/StandbyReads.js"
import { freePort } from "../utils/freePort.js"
import { hostOf, tcpProxy, withHosts } from "../utils/TcpProxy.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// DATABASE_READ_URL: statements of a region marked `onStandby` that run outside a transaction go to the read
// URL's server; everything else, and anything in a transaction, to the primary. Here the read URL is the same
// server (a host that is down first, then the server, `prefer-standby`); which pool served a statement shows in
// its session's `application_name` (`hotel` for the primary's pool, `hotel-read` for the read pool).

const settings: PoolSettings = {
  size: 2,
  poolTimeoutMs: 3_000,
  statementTimeoutMs: 2_000,
  lockTimeoutMs: 1_000,
  idleInTransactionTimeoutMs: 10_000,
  preparedStatements: true
}

const withReadUrl = <A, E>(readUrl: (url: string) => Effect.Effect<string>, effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.gen(function*() {
    const url = Redacted.value(yield* DatabaseUrl)
    const read = yield* readUrl(url)
    return yield* Effect.provide(
      effect,
      sqlLayer(Redacted.make(url), settings, defaultHostBounds, Option.some({ url: Redacted.make(read), maxLagMs: 5_000 }))
    )
  })

const sameServer = (url: string) =>
  Effect.map(freePort(), (down) => withHosts(url, [`127.0.0.1:${down}`, hostOf(url)]))

const servedBy = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ name: string }>`SELECT current_setting('application_name') AS name`, (rows) => rows[0]?.name))

describe("standby reads", () => {
  layer(TestDatabase.layer(), { excludeTestServices: true })((it) => {
    it.effect("reads marked onStandby go to the read URL; other statements, and any transaction, to the primary", () =>
      withReadUrl(sameServer, Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect(yield* servedBy).toBe("hotel")
        expect(yield* onStandby(servedBy)).toBe("hotel-read")
        expect(yield* onStandby(sql.withTransaction(servedBy))).toBe("hotel")
        expect(yield* sql.withTransaction(onStandby(servedBy))).toBe("hotel")
      })))

    it.effect("a read the standby cancels in conflict with its replay is run once more on the primary", () =>
      withReadUrl(sameServer, Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Fails as a hot standby's conflict does, on the read pool's sessions only.
        yield* sql.unsafe(`CREATE OR REPLACE FUNCTION test_conflict_on_read_pool() RETURNS text LANGUAGE plpgsql AS $$
          BEGIN
            IF current_setting('application_name') = 'hotel-read' THEN
              RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = 'canceling statement due to conflict with recovery';
            END IF;
            RETURN current_setting('application_name');
          END $$`)
        const rows = yield* onStandby(sql<{ served: string }>`SELECT test_conflict_on_read_pool() AS served`)
        expect(rows).toEqual([{ served: "hotel" }])
      })))

    it.effect("a read URL that is down from the start: the service starts, and the primary answers the reads", () =>
      withReadUrl((url) => Effect.map(freePort(), (down) => withHosts(url, [`127.0.0.1:${down}`])), Effect.gen(function*() {
        expect(yield* onStandby(servedBy)).toBe("hotel")
      })))

    it.effect("a read URL that cannot be reached: the primary answers the reads", () =>
      Effect.scoped(Effect.gen(function*() {
        const url = Redacted.value(yield* DatabaseUrl)
        const proxy = yield* tcpProxy({ host: "127.0.0.1", port: Number(hostOf(url).split(":")[1]) })
        yield* withReadUrl(() => Effect.succeed(withHosts(url, [`127.0.0.1:${proxy.port}`])), Effect.gen(function*() {
          expect(yield* onStandby(servedBy)).toBe("hotel-read")
          proxy.set("refuse")
          expect(yield* onStandby(servedBy)).toBe("hotel")
          expect(yield* onStandby(servedBy)).toBe("hotel")
        }))
      })))
  })
})
