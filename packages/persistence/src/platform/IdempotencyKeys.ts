import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlConnection from "effect/sql/SqlConnection"
import type { SqlError } from "effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import { withSpan } from "../database/Span.js"

// Idempotency keys, scoped to the API key that sent them. A request with
// a key runs in one transaction that holds the key, runs the operation and stores its successful response
// before it commits: the change and the response it reports commit together or not at all, so after a crash
// a retry replays what committed or runs what never happened. The key is held by a transaction-scoped
// advisory lock, which Postgres releases when the transaction ends in any way (commit, rollback, a crashed
// process's closed connection): no claim row, no owner token, no takeover timer.

/** How long a stored response is replayed. */
export const retention = Duration.hours(24)

export interface IdempotencyRequest {
  readonly apiKeyId: string
  /** The `Idempotency-Key` header, already validated. */
  readonly key: string
  /** A digest of method, path and body: the same key with another fingerprint is a reuse. */
  readonly fingerprint: string
}

export interface StoredResponse {
  readonly status: number
  readonly body: string
  readonly contentType: string | null
}

/** The open transaction of a request that holds its key; exactly one of `commit` and `rollback` ends it. */
export interface KeyTransaction {
  /** The transaction's connection, as the client's `transactionService` holds it. */
  readonly connection: readonly [SqlConnection.Connection, number]
  /**
   * Runs the operation in the transaction: its statements run there, and its writes join it through
   * `inTransaction` (`database/Transaction.ts`). A nested `sql.withTransaction` cannot: the connection is lent
   * without the client's own transaction bookkeeping, so no request path opens one.
   */
  readonly within: <A, E, R>(operation: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Stores the successful response (when it has a body to keep) and commits it with the operation's change. */
  readonly commit: (response: Option.Option<StoredResponse>) => Effect.Effect<void, SqlError>
  /** Undoes the operation's change and frees the key. */
  readonly rollback: Effect.Effect<void>
}

export type BeginOutcome =
  /** The key is this request's: run the operation in `transaction`, then commit or roll back. */
  | { readonly _tag: "Open"; readonly transaction: KeyTransaction }
  /** The same request already succeeded: answer with its response. */
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  /** The same key is held by a transaction still running (here or in another process). */
  | { readonly _tag: "InProgress" }
  /** The key was used with another request. */
  | { readonly _tag: "Mismatch" }

interface KeyRow {
  readonly fingerprint: string
  readonly response_status: number
  readonly response_body: string | null
  readonly response_content_type: string | null
}

export class IdempotencyKeys extends Context.Service<IdempotencyKeys, {
  /** Opens the request's transaction and takes its key (see `BeginOutcome`); ends it unless `Open`. */
  readonly begin: (request: IdempotencyRequest) => Effect.Effect<BeginOutcome, SqlError>
  /** Deletes expired keys; returns how many. */
  readonly purgeExpired: Effect.Effect<number>
}>()("@hotel/persistence/platform/IdempotencyKeys") {
  static readonly postgres: Layer.Layer<IdempotencyKeys, never, SqlClient.SqlClient> = Layer.effect(
    IdempotencyKeys,
    Effect.map(SqlClient.SqlClient, (sql) => {
      // The lock id: a 64-bit hash of the API key and the key (another pair sharing it only waits its turn).
      const lock = (request: IdempotencyRequest) =>
        sql<{ readonly locked: boolean }>`
          SELECT pg_try_advisory_xact_lock(hashtextextended(${request.apiKeyId} || ':' || ${request.key}, 0))
            AS locked`.pipe(Effect.map((rows) => rows[0]?.locked === true))

      const stored = (request: IdempotencyRequest, now: number) =>
        sql<KeyRow>`
          SELECT fingerprint, response_status, response_body, response_content_type
          FROM idempotency_keys
          WHERE api_key_id = ${request.apiKeyId} AND key = ${request.key}
            AND response_status IS NOT NULL AND expires_at > ${new Date(now)}`

      // Runs under the key's lock: the only row it can meet is an expired one, which it replaces.
      const store = (request: IdempotencyRequest, response: StoredResponse) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          sql`
            INSERT INTO idempotency_keys AS k (api_key_id, key, fingerprint, state, response_status, response_body,
                                               response_content_type, claimed_at, expires_at)
            VALUES (${request.apiKeyId}, ${request.key}, ${request.fingerprint}, 'completed', ${response.status},
                    ${response.body}, ${response.contentType}, ${new Date(now)},
                    ${new Date(now + Duration.toMillis(retention))})
            ON CONFLICT (api_key_id, key) DO UPDATE SET
              fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state,
              response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
              response_content_type = EXCLUDED.response_content_type, claim_token = NULL,
              claimed_at = EXCLUDED.claimed_at, expires_at = EXCLUDED.expires_at`).pipe(
            Effect.asVoid,
            withSpan("IdempotencyKeys.store")
          )

      const decide = (request: IdempotencyRequest) =>
        Effect.gen(function*() {
          if (!(yield* lock(request))) return { _tag: "InProgress" } as const
          const [row] = yield* stored(request, yield* Clock.currentTimeMillis)
          if (row === undefined) return undefined
          if (row.fingerprint !== request.fingerprint) return { _tag: "Mismatch" } as const
          const response = {
            status: row.response_status,
            body: row.response_body ?? "",
            contentType: row.response_content_type
          }
          return { _tag: "Replay", response } as const
        })

      // Never interrupted between acquiring the connection and handing over the transaction (or ending it).
      const begin = (request: IdempotencyRequest): Effect.Effect<BeginOutcome, SqlError> =>
        Effect.uninterruptible(Effect.gen(function*() {
          const scope = yield* Scope.make()
          const release = Scope.close(scope, Exit.void)
          const conn = yield* Scope.provide(sql.reserve, scope).pipe(Effect.onError(() => release))
          const run = (statement: string) => conn.executeUnprepared(statement, [], undefined)
          const connection = [conn, 0] as const
          const within = <A, E, R>(operation: Effect.Effect<A, E, R>) =>
            Effect.provideService(operation, sql.transactionService, connection)
          const rollback = run("ROLLBACK").pipe(Effect.ignore, Effect.ensuring(release))
          yield* run("BEGIN").pipe(Effect.onError(() => release))
          const decided = yield* decide(request).pipe(within, Effect.onError(() => rollback))
          if (decided !== undefined) return yield* Effect.as(rollback, decided)
          const commit = (response: Option.Option<StoredResponse>) =>
            Option.match(response, { onNone: () => Effect.void, onSome: (kept) => store(request, kept) }).pipe(
              within,
              Effect.andThen(run("COMMIT")),
              Effect.onError(() => rollback),
              Effect.ensuring(release),
              Effect.uninterruptible
            )
          return { _tag: "Open", transaction: { connection, within, commit, rollback } } as const
        })).pipe(withSpan("IdempotencyKeys.begin"))

      const purgeExpired = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql<{ readonly count: number }>`
          WITH purged AS (DELETE FROM idempotency_keys WHERE expires_at <= ${new Date(now)} RETURNING 1)
          SELECT count(*)::int AS count FROM purged`).pipe(
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie,
          withSpan("IdempotencyKeys.purgeExpired")
        )

      return IdempotencyKeys.of({ begin, purgeExpired })
    })
  )

  /**
   * Purges expired keys now and then every `every` (default 10 minutes) for the layer's lifetime. A failed
   * purge is logged and retried at the next tick; a purge under way is never interrupted (only the wait is).
   */
  static readonly purgeEvery = (every: Duration.Input = Duration.minutes(10)) =>
    Layer.effectDiscard(
      Effect.flatMap(IdempotencyKeys, (store) =>
        store.purgeExpired.pipe(
          Effect.tap((purged) =>
            purged > 0 ? Effect.logDebug(`Purged ${purged} expired idempotency keys`) : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logWarning("Purging expired idempotency keys failed", cause)),
          Effect.uninterruptible,
          Effect.repeat(Schedule.spaced(every)),
          Effect.interruptible,
          Effect.forkScoped
        ))
    )
}
