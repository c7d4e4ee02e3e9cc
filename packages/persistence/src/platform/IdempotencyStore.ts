import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"

// Idempotency keys (interface 7.4, decisions 6), scoped to the API key that sent them. A key is claimed
// before the operation runs; the owner then stores the successful response or releases the key. The claim
// is one atomic statement, so two requests with the same key, in one process or several, never both run.

/** A claim left by a process that crashed may be taken over after this long. */
export const claimTimeout = Duration.seconds(60)
/** How long a stored response is replayed. */
export const retention = Duration.hours(24)

export interface IdempotencyRequest {
  readonly apiKeyId: string
  /** The `Idempotency-Key` header, already validated. */
  readonly key: string
  /** A digest of method, path and body: the same key with another fingerprint is a reuse. */
  readonly fingerprint: string
}

/** The claim a request holds; only its holder can complete or release it. */
export interface Claim {
  readonly apiKeyId: string
  readonly key: string
  readonly token: string
}

export interface StoredResponse {
  readonly status: number
  readonly body: string
  readonly contentType: string | null
}

export type ClaimOutcome =
  /** The key is this request's: run the operation, then `complete` or `release`. */
  | { readonly _tag: "Claimed"; readonly claim: Claim }
  /** The same request already succeeded: answer with its response. */
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  /** The same request is still running (here or in another process). */
  | { readonly _tag: "InProgress" }
  /** The key was used with another request. */
  | { readonly _tag: "Mismatch" }

export class IdempotencyStore extends Context.Tag("@hotel/persistence/IdempotencyStore")<IdempotencyStore, {
  readonly claim: (request: IdempotencyRequest) => Effect.Effect<ClaimOutcome>
  /** Stores the successful response of the claim's request for `retention`. */
  readonly complete: (claim: Claim, response: StoredResponse) => Effect.Effect<void>
  /** Frees the key of a failed request, so a retry runs again. */
  readonly release: (claim: Claim) => Effect.Effect<void>
  /** Deletes expired keys; returns how many. */
  readonly purgeExpired: Effect.Effect<number>
}>() {
  static readonly postgres: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
    IdempotencyStore,
    Effect.map(SqlClient.SqlClient, (sql) => {
      interface KeyRow {
        readonly fingerprint: string
        readonly state: string
        readonly response_status: number | null
        readonly response_body: string | null
        readonly response_content_type: string | null
      }

      // Inserts the key, or takes over one that expired or whose owner has not finished within
      // `claimTimeout`; returns no row when a live key is in the way.
      const tryClaim = (request: IdempotencyRequest, token: string, now: number) =>
        sql<{ readonly claim_token: string }>`
          INSERT INTO idempotency_keys AS k
            (api_key_id, key, fingerprint, state, claim_token, claimed_at, expires_at)
          VALUES (${request.apiKeyId}, ${request.key}, ${request.fingerprint}, 'running', ${token},
                  ${new Date(now)}, ${new Date(now + Duration.toMillis(retention))})
          ON CONFLICT (api_key_id, key) DO UPDATE SET
            fingerprint = EXCLUDED.fingerprint,
            state = 'running',
            claim_token = EXCLUDED.claim_token,
            response_status = NULL,
            response_body = NULL,
            response_content_type = NULL,
            claimed_at = EXCLUDED.claimed_at,
            expires_at = EXCLUDED.expires_at
          WHERE k.expires_at <= EXCLUDED.claimed_at
             OR (k.state = 'running' AND k.claimed_at <= ${new Date(now - Duration.toMillis(claimTimeout))})
          RETURNING claim_token`.pipe(Effect.orDie)

      const existing = (request: IdempotencyRequest) =>
        sql<KeyRow>`
          SELECT fingerprint, state, response_status, response_body, response_content_type
          FROM idempotency_keys
          WHERE api_key_id = ${request.apiKeyId} AND key = ${request.key}`.pipe(Effect.orDie)

      const claim = (request: IdempotencyRequest): Effect.Effect<ClaimOutcome> =>
        Effect.gen(function*() {
          const token = globalThis.crypto.randomUUID()
          // A key released between the two statements is claimable again: try again (a few times at most).
          for (let attempt = 0; attempt < 5; attempt++) {
            const now = yield* Clock.currentTimeMillis
            const claimed = yield* tryClaim(request, token, now)
            if (claimed.length > 0) {
              return { _tag: "Claimed", claim: { apiKeyId: request.apiKeyId, key: request.key, token } } as const
            }
            const [row] = yield* existing(request)
            if (row === undefined) continue
            if (row.fingerprint !== request.fingerprint) return { _tag: "Mismatch" } as const
            if (row.state === "completed" && row.response_status !== null) {
              return {
                _tag: "Replay",
                response: {
                  status: row.response_status,
                  body: row.response_body ?? "",
                  contentType: row.response_content_type
                }
              } as const
            }
            return { _tag: "InProgress" } as const
          }
          return { _tag: "InProgress" } as const
        }).pipe(Effect.withSpan("IdempotencyStore.claim"))

      const complete = (owned: Claim, response: StoredResponse) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          sql`
            UPDATE idempotency_keys SET
              state = 'completed',
              response_status = ${response.status},
              response_body = ${response.body},
              response_content_type = ${response.contentType},
              expires_at = ${new Date(now + Duration.toMillis(retention))}
            WHERE api_key_id = ${owned.apiKeyId} AND key = ${owned.key}
              AND claim_token = ${owned.token} AND state = 'running'`).pipe(
            Effect.orDie,
            Effect.asVoid,
            Effect.withSpan("IdempotencyStore.complete")
          )

      const release = (owned: Claim) =>
        sql`
          DELETE FROM idempotency_keys
          WHERE api_key_id = ${owned.apiKeyId} AND key = ${owned.key}
            AND claim_token = ${owned.token} AND state = 'running'`.pipe(
          Effect.orDie,
          Effect.asVoid,
          Effect.withSpan("IdempotencyStore.release")
        )

      const purgeExpired = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql<{ readonly count: number }>`
          WITH purged AS (DELETE FROM idempotency_keys WHERE expires_at <= ${new Date(now)} RETURNING 1)
          SELECT count(*)::int AS count FROM purged`).pipe(
          Effect.map((rows) => rows[0]?.count ?? 0),
          Effect.orDie,
          Effect.withSpan("IdempotencyStore.purgeExpired")
        )

      return IdempotencyStore.of({ claim, complete, release, purgeExpired })
    })
  )

  /** The same rules in this process's memory (tests). */
  static readonly memory: Layer.Layer<IdempotencyStore> = Layer.sync(IdempotencyStore, () => {
    interface Entry {
      readonly fingerprint: string
      readonly token: string
      readonly claimedAt: number
      readonly expiresAt: number
      readonly response: StoredResponse | null
    }
    const entries = new Map<string, Entry>()
    const id = (apiKeyId: string, key: string) => `${apiKeyId}\u0000${key}`
    const owned = (claim: Claim): Entry | undefined => {
      const entry = entries.get(id(claim.apiKeyId, claim.key))
      return entry !== undefined && entry.token === claim.token && entry.response === null ? entry : undefined
    }
    return IdempotencyStore.of({
      claim: (request) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync((): ClaimOutcome => {
            const entry = entries.get(id(request.apiKeyId, request.key))
            const free = entry === undefined || entry.expiresAt <= now ||
              (entry.response === null && entry.claimedAt <= now - Duration.toMillis(claimTimeout))
            if (free) {
              const token = globalThis.crypto.randomUUID()
              entries.set(id(request.apiKeyId, request.key), {
                fingerprint: request.fingerprint,
                token,
                claimedAt: now,
                expiresAt: now + Duration.toMillis(retention),
                response: null
              })
              return { _tag: "Claimed", claim: { apiKeyId: request.apiKeyId, key: request.key, token } }
            }
            if (entry.fingerprint !== request.fingerprint) return { _tag: "Mismatch" }
            return entry.response === null ? { _tag: "InProgress" } : { _tag: "Replay", response: entry.response }
          })),
      complete: (claim, response) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            const entry = owned(claim)
            if (entry !== undefined) {
              entries.set(id(claim.apiKeyId, claim.key), {
                ...entry,
                response,
                expiresAt: now + Duration.toMillis(retention)
              })
            }
          })),
      release: (claim) =>
        Effect.sync(() => {
          if (owned(claim) !== undefined) entries.delete(id(claim.apiKeyId, claim.key))
        }),
      purgeExpired: Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          let purged = 0
          for (const [key, entry] of entries) {
            if (entry.expiresAt <= now) {
              entries.delete(key)
              purged++
            }
          }
          return purged
        }))
    })
  })

  /**
   * Purges expired keys now and then every `every` (default 10 minutes) for the layer's lifetime. A failed
   * purge is logged and retried at the next tick.
   */
  static readonly purgeEvery = (every: Duration.DurationInput = Duration.minutes(10)) =>
    Layer.scopedDiscard(
      Effect.flatMap(IdempotencyStore, (store) =>
        store.purgeExpired.pipe(
          Effect.tap((purged) =>
            purged > 0 ? Effect.logDebug(`Purged ${purged} expired idempotency keys`) : Effect.void
          ),
          Effect.catchAllCause((cause) => Effect.logWarning("Purging expired idempotency keys failed", cause)),
          Effect.repeat(Schedule.spaced(every)),
          Effect.interruptible,
          Effect.forkScoped
        ))
    )
}
