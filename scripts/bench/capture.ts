// Captures the SQL our server runs for one request of each workload by calling the same persistence services
// its handlers and gateway call (the key lookup that takes the request's rate-limit token, then the handler's
// reads or the hold's transaction), with a statement transformer recording every compiled statement and its parameters.
import * as SqlClient from "effect/sql/SqlClient"
import * as Statement from "effect/sql/Statement"
import { hashKey } from "@hotel/persistence/platform/ApiKeyRepository"
import { AriWrites } from "@hotel/persistence/ari/AriWrites"
import { CatalogRepository } from "@hotel/persistence/catalog/CatalogRepository"
import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import { Holds } from "@hotel/persistence/booking/Holds"
import { Quotes } from "@hotel/persistence/quotes/Quotes"
import { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import { ReservationQueries } from "@hotel/persistence/booking/ReservationQueries"
import { SqlLive } from "@hotel/persistence/database/Sql"
import { EventsLive } from "@hotel/persistence/events/EventsLive"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { type Recipe, type Recipes, toParam } from "./recipe.js"

/** Runs `effect`, answering its result and every statement it ran. */
const recording = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const statements: Array<{ sql: string; params: ReturnType<typeof toParam>[] }> = []
    return effect.pipe(
      Effect.provideService(Statement.CurrentTransformer, (statement) =>
        Effect.sync(() => {
          const [sql, params] = statement.compile()
          statements.push({ sql, params: params.map(toParam) })
          return statement
        })),
      Effect.map((result) => ({ result, statements: statements as Recipe }))
    )
  })

export interface HoldInput {
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly guestId: string
  readonly checkIn: string
  readonly checkOut: string
}

export interface CapturedHold {
  readonly auth: Recipe
  /** The statements inside the hold's transaction (BEGIN and COMMIT are not statements of the client). */
  readonly transaction: Recipe
  readonly reservationId: string
  readonly folioId: string
  /** The ids our server made for the hold's accommodation and folio lines (lines in position order). */
  readonly accommodationId: string
  readonly lineIds: ReadonlyArray<string>
  readonly confirmationCode: string
}

const services = (url: string) =>
  Layer.mergeAll(
    RateLimiter.postgres,
    CatalogRepository.layer,
    ReservationQueries.layer,
    Quotes.layer,
    Holds.layer,
    // A hold appends its events in its own transaction, so the captured transaction includes them.
    EventsLive
  ).pipe(Layer.provideMerge(SqlLive), Layer.provide(Layer.succeed(DatabaseUrl)(Redacted.make(url))))

export const capture = (url: string, input: {
  readonly key: string
  readonly reservationId: string
  readonly roomTypeId: string
  readonly holds: ReadonlyArray<HoldInput>
}) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const catalog = yield* CatalogRepository
    const reservations = yield* ReservationQueries
    const quotes = yield* Quotes
    const holds = yield* Holds
    const sql = yield* SqlClient.SqlClient
    // The gateway as ours runs it for a key it has not cached, and as a plain server runs it on every request:
    // one statement finding the key by its hash and taking one token of its bucket (for a key whose limit is
    // decided request by request, as the many keys' default limit is; the one bench key's large limit is
    // leased, so its lookup takes none). Ours caches a key for a second and serves a large limit from a leased
    // block of the bucket, so with one key it runs this far less often: that saving is part of those ratios.
    const auth = recording(Effect.map(limiter.admit(hashKey(input.key)), (found) => Option.getOrThrow(found).stored.key))
    const me = yield* auth
    const key = me.result
    const now = new Date()
    const reservation = yield* recording(Effect.gen(function*() {
      yield* catalog.property(key.propertyId)
      yield* reservations.findRecord(key.propertyId, input.reservationId, now)
    }))
    const rates = (checkOut: string, trace: boolean) =>
      recording(quotes.rates(key.propertyId, {
        checkIn: "2031-03-01",
        checkOut,
        party: { adults: 2, children: 0, childAges: null },
        promoCode: null,
        roomTypeId: input.roomTypeId,
        ratePlanId: null,
        includeUnavailable: false,
        trace
      }, key.context))
    // A quote's trace is made in Node; both are captured so that the baselines follow if it ever costs SQL.
    const rates3 = yield* rates("2031-03-04", false)
    const rates30 = yield* rates("2031-03-31", false)
    const rates30Traced = yield* rates("2031-03-31", true)
    const recipes: Recipes = {
      auth: { hash: hashKey(input.key), keyId: key.id },
      me: me.statements,
      reservation: [...me.statements, ...reservation.statements],
      rates3: [...me.statements, ...rates3.statements],
      rates30: [...me.statements, ...rates30.statements],
      rates30Traced: [...me.statements, ...rates30Traced.statements]
    }
    const captured = yield* Effect.forEach(input.holds, (hold) =>
      recording(holds.create({ propertyId: key.propertyId, apiKeyId: key.id, salesContext: key.context }, {
        ...hold,
        adults: 2,
        children: 0,
        childAges: null,
        bedConfig: null,
        addOns: [],
        promoCode: null,
        specialNotes: null,
        blockId: null
      })).pipe(Effect.flatMap(({ result, statements }) =>
        Effect.map(sql<{ accommodation_id: string; line_ids: ReadonlyArray<string> }>`
          SELECT (SELECT id FROM accommodations WHERE reservation_id = ${result.reservationId}) AS accommodation_id,
                 ARRAY(SELECT id FROM folio_lines WHERE folio_id = ${result.folioId} ORDER BY position) AS line_ids`,
        ([rows]): CapturedHold => ({
          auth: me.statements,
          transaction: statements,
          reservationId: result.reservationId,
          folioId: result.folioId,
          accommodationId: rows.accommodation_id,
          lineIds: rows.line_ids,
          confirmationCode: result.confirmationCode
        })))))
    return { recipes, holds: captured }
  }).pipe(Effect.provide(services(url)), Effect.orDie)

/**
 * The statements of one `POST /ari` call of `items` (the handler's `AriWrites.apply`), in a transaction rolled
 * back, so the capture leaves the calendar as it was.
 */
export const captureAriWrite = (url: string, propertyId: string, items: unknown) =>
  Effect.gen(function*() {
    const writes = yield* AriWrites
    const sql = yield* SqlClient.SqlClient
    const rolledBack = yield* recording(writes.apply(propertyId, items)).pipe(
      Effect.flatMap((captured) => Effect.fail({ rolledBack: captured.statements })),
      sql.withTransaction,
      Effect.flip
    )
    if (!("rolledBack" in rolledBack)) return yield* Effect.die(rolledBack)
    return rolledBack.rolledBack
  }).pipe(
    Effect.provide(Layer.mergeAll(AriWrites.layer, EventsLive).pipe(
      Layer.provideMerge(SqlLive),
      Layer.provide(Layer.succeed(DatabaseUrl)(Redacted.make(url)))
    )),
    Effect.orDie
  )

/** Statements that only the benchmark runs: the truncation between hold runs and the oversell check. */
export const adminQuery = <A extends object>(url: string, text: string, params: ReadonlyArray<unknown> = []) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.unsafe<A>(text, params)
  }).pipe(Effect.provide(SqlLive.pipe(Layer.provide(Layer.succeed(DatabaseUrl)(Redacted.make(url))))), Effect.orDie)
