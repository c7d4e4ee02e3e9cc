import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { hostOf, type TcpProxy, tcpProxy, withHosts } from "../../../persistence/test/utils/TcpProxy.js"
import { injectedServerUrl, TestDatabase } from "../../../persistence/test/utils/TestDatabase.js"
import { DatabaseBusy } from "@hotel/domain"
import { windowCacheTtl } from "@hotel/http/platform/Maintenance"
import { hashKey } from "@hotel/persistence/platform/ApiKeyRepository"
import { confirm, getReservation, hold, holdBody, newGuest } from "../utils/booking.js"
import { expectFailure } from "../utils/client.js"
import { makeTestApiLiveOn, TestApi, TestHttpLive } from "../utils/TestServer.js"

// The service on a formation's URLs: `DATABASE_URL` with two hosts (`target_session_attrs=read-write`) and a
// `DATABASE_READ_URL`. The hosts are TCP forwarders in front of the test's server, so the test can take the
// primary away (both hosts refuse: the failover window) and bring one back (the promoted standby), while the
// database stays the same real one.

class Hosts extends Context.Service<Hosts, {
  readonly first: TcpProxy
  readonly second: TcpProxy
  readonly standby: TcpProxy
}>()("test/failover/Hosts") {}

const HostsLive = Layer.effect(Hosts, Effect.gen(function*() {
  const server = injectedServerUrl()
  if (server === undefined) return yield* Effect.die(new Error("the tests' global setup gives no server"))
  const [host, port] = hostOf(server).split(":")
  const target = { host: host ?? "127.0.0.1", port: Number(port) }
  return { first: yield* tcpProxy(target), second: yield* tcpProxy(target), standby: yield* tcpProxy(target) }
}))

const FormationLive = Layer.unwrap(Effect.map(Hosts, ({ first, second, standby }) =>
  TestDatabase.routed((database) => Effect.succeed({
    url: withHosts(database, [`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`], { target_session_attrs: "read-write" }),
    readUrl: withHosts(database, [`127.0.0.1:${standby.port}`], { target_session_attrs: "prefer-standby" })
  })))).pipe(Layer.provideMerge(HostsLive))

const FormationApiLive = makeTestApiLiveOn(TestHttpLive, FormationLive)

/** Every host forwarding again, whatever the test did (a failed assertion must not cut the next test off). */
const restored = Effect.flatMap(Hosts, ({ first, second, standby }) =>
  Effect.sync(() => {
    for (const proxy of [first, second, standby]) proxy.set("forward")
  }))

const busy = (response: { readonly status: number; readonly text: string; readonly headers: Headers }) => {
  expect(response.status, response.text).toBe(503)
  expect(JSON.parse(response.text)).toMatchObject({ error: { type: "server", code: "database_busy" } })
  expect(response.headers.get("retry-after")).toBe("1")
}

layer(FormationApiLive, { excludeTestServices: true, timeout: "120 seconds" })("faults: a formation", (it) => {
  it.effect("quotes, availability, the catalogue and rate plans are read through DATABASE_READ_URL; holds and confirms on the primary", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const body = holdBody(api, guest)
      const client = api.client
      const quotes = yield* client.rates.rates({ query: { check_in: body.check_in, check_out: body.check_out, adults: 2 } })
      expect(quotes.data.length).toBeGreaterThan(0)
      // Each read answers (a failed one fails the test with its error).
      const reads = yield* Effect.all([
        client.availability.availability({ query: { start_date: "2031-03-10", end_date: "2031-03-13" } }),
        client.catalog.property(),
        client.catalog.roomTypes(),
        client.catalog.services(),
        client.ratePlanReads.list()
      ])
      expect(reads).toHaveLength(5)
      const held = yield* hold(api, body)
      expect(held.status).toBe("tentative")
      const confirmed = yield* confirm(api, held.reservation_id)
      expect(confirmed.status).toBe("confirmed")
      // Read-your-writes: the reservation is read on the primary, right after.
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation.status).toBe("confirmed")
      // The read URL's pool is connected to the database (which statements it serves: StandbyReads.test.ts).
      const readers = yield* api.sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hotel-read'`
      expect(readers[0]?.n).toBeGreaterThan(0)
      expect(yield* client.health.ready()).toEqual({ status: "ok" })
    }))

  it.effect("no primary: the reads a standby serves are answered, a key first seen then included; writes are 503 database_busy with Retry-After; once one answers, the write retried with its key is done once", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { first, second } = yield* Hosts
      const guest = yield* newGuest(api)
      const body = holdBody(api, guest, { check_in: "2031-04-10", check_out: "2031-04-12" })
      const headers = { "Idempotency-Key": `failover-${guest}` }
      // Created before the primary goes and used only after: no process has it cached.
      const fresh = yield* api.createKey()
      const client = yield* api.clientFor(fresh)

      first.set("refuse")
      second.set("refuse")
      busy(yield* api.post("/holds", body, { headers }))
      // Ready: the process serves what its standby can (a balancer keeps it, and it answers writes 503 itself).
      expect(yield* client.health.ready()).toEqual({ status: "ok" })
      // The key is looked up on the standby, its token taken from this process's outage lease (60 of 600).
      const [quotes, quoted] = yield* client.rates.rates({
        query: { check_in: "2031-04-10", check_out: "2031-04-12", adults: 2 },
        responseMode: "decoded-and-response"
      })
      expect(quotes.data.length).toBeGreaterThan(0)
      expect([quoted.headers["x-ratelimit-limit"], quoted.headers["x-ratelimit-remaining"]]).toEqual(["600", "59"])
      const reads = yield* Effect.all([
        client.availability.availability({ query: { start_date: "2031-04-10", end_date: "2031-04-13" } }),
        client.catalog.property(),
        client.catalog.roomTypes(),
        client.catalog.services(),
        client.ratePlanReads.list()
      ])
      expect(reads).toHaveLength(5)
      // A write needs the primary, whatever the key's tokens.
      yield* expectFailure(client.guests.create({ headers: {}, payload: { first_name: "No", last_name: "Primary" } }), DatabaseBusy)


      // The standby is promoted: the second host answers again, and the service finds it by itself.
      second.set("forward")
      yield* api.client.guests.create({ headers: {}, payload: { first_name: "Primary", last_name: "Back" } }).pipe(
        Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo({ duration: "20 seconds" })))
      )
      const retried = yield* api.post("/holds", body, { headers })
      expect(retried.status, retried.text).toBe(201)
      const replayed = yield* api.post("/holds", body, { headers })
      expect(replayed.status).toBe(201)
      expect(replayed.headers.get("idempotent-replayed")).toBe("true")
      expect(replayed.json<{ reservation_id: string }>().reservation_id).toBe(retried.json<{ reservation_id: string }>().reservation_id)
      const made = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM reservations WHERE guest_id = ${guest}`
      expect(made[0]?.n).toBe(1)
    }).pipe(Effect.ensuring(restored)))

  it.effect("no primary: a key is let through a tenth of its limit per process, then 503; once a primary answers, its bucket is debited what was let through", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { first, second } = yield* Hosts
      // 40 a minute: an outage lease of 4. Never used before, so its bucket is full when it is settled.
      const key = yield* api.createKey({ rateLimit: 40 })
      const [row] = yield* api.sql<{ id: string }>`SELECT id FROM api_keys WHERE key_hash = ${hashKey(key)}`
      const bucket = `key:${row?.id}`
      const client = yield* api.clientFor(key)

      first.set("refuse")
      second.set("refuse")
      const remaining: Array<string | undefined> = []
      for (let i = 0; i < 4; i++) {
        const [, response] = yield* client.catalog.roomTypes({ responseMode: "decoded-and-response" })
        remaining.push(response.headers["x-ratelimit-remaining"])
      }
      expect(remaining).toEqual(["3", "2", "1", "0"])
      // The lease is spent: the shared bucket must decide, and no primary answers.
      yield* expectFailure(client.catalog.roomTypes(), DatabaseBusy)

      second.set("forward")
      // Nothing is sent with the key: the settler debits the shared bucket by itself, within a second or so of
      // the primary's return (the bucket, never seen, is created full: 40, less the 4 let through).
      const settled = yield* api.sql<{ tokens: number }>`SELECT tokens FROM rate_limit_buckets WHERE bucket = ${bucket}`.pipe(
        Effect.flatMap((rows) => rows[0] === undefined ? Effect.fail("not settled yet" as const) : Effect.succeed(rows[0])),
        Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo({ duration: "20 seconds" })))
      )
      expect(Number(settled.tokens)).toBe(36)
    }).pipe(Effect.ensuring(restored)))

  it.effect("a standby that cannot be reached: its reads are answered by the primary; with no primary either, nothing is, readiness included", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { first, second, standby } = yield* Hosts
      standby.set("refuse")
      const quotes = yield* api.client.rates.rates({ query: { check_in: "2031-05-10", check_out: "2031-05-12", adults: 2 } })
      expect(quotes.data.length).toBeGreaterThan(0)
      const plans = yield* api.client.ratePlanReads.list()
      expect(plans.data.length).toBeGreaterThan(0)

      first.set("refuse")
      second.set("refuse")
      busy(yield* api.get("/health/ready"))
      busy(yield* api.get(`/rates?check_in=2031-05-10&check_out=2031-05-12&adults=2`))
      // Once the maintenance window's cached read has expired, the request's first step reads it and finds no
      // database: that too is 503, not 500. (The server runs on real time here, as its database does.)
      yield* Effect.sleep(Duration.sum(windowCacheTtl, Duration.millis(50)))
      busy(yield* api.get(`/rates?check_in=2031-05-10&check_out=2031-05-12&adults=2`))
    }).pipe(Effect.ensuring(restored)))
})
