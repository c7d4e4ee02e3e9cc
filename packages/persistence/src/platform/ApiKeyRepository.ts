import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { SalesContext } from "@hotel/domain"
import { ApiKey, Scope } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash, randomBytes } from "node:crypto"
import { withSpan } from "../database/Span.js"

/** The secret is never stored: only its SHA-256, in hex. */
export const hashKey = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex")

/** A new secret: `hk_` and 32 random bytes in base64url. */
export const generateKey = (): string => `hk_${randomBytes(32).toString("base64url")}`

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Not an API error (the admin command line reports it): no property has this id. */
export class PropertyNotFound extends Schema.TaggedError<PropertyNotFound>()("PropertyNotFound", {
  message: Schema.String,
  property_id: Schema.String
}) {}

/** Not an API error (the admin command line reports it): no API key has this id. */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {
  message: Schema.String,
  api_key_id: Schema.String
}) {}

export interface NewApiKey {
  readonly propertyId: string
  readonly scopes: ReadonlyArray<Scope>
  /** `back_office` when not given. */
  readonly context?: SalesContext | undefined
  readonly label?: string | null | undefined
  /** Never expires when not given. */
  readonly expiresAt?: Date | null | undefined
  /** Requests per minute for this key alone; the default 600 when not given. */
  readonly rateLimit?: number | null | undefined
  /** The most live holds the key may have at once; no cap of its own when not given. */
  readonly maxLiveHolds?: number | null | undefined
}

/** A key as found by its hash; the caller decides what `revokedAt` and `key.expiresAt` mean now. */
export interface StoredApiKey {
  readonly key: ApiKey
  readonly revokedAt: Date | null
}

/** The columns of `api_keys` a lookup reads (see `storedKeyOf`). */
export interface ApiKeyRow {
  readonly id: string
  readonly property_id: string
  readonly scopes: ReadonlyArray<string>
  readonly context: string
  readonly label: string | null
  readonly expires_at: Date | null
  readonly revoked_at: Date | null
  readonly rate_limit: number | null
}

// A set of the literals, not `Schema.is(Scope)`: a key's scopes are checked on every uncached lookup, and the
// schema's check of a fifteen-member union allocates a parse per scope.
const scopes = new Set<string>(Scope.literals)
const isScope = (value: string): value is Scope => scopes.has(value)
const isContext = (s: string): s is SalesContext => s === "back_office" || s === "booking_engine" || s === "channel"

/**
 * The stored sales context of a key. Anything else is a corrupt row: reading it as `back_office` would grant
 * the widest visibility, so it is a defect instead.
 */
const salesContextOf = (row: ApiKeyRow): Effect.Effect<SalesContext> =>
  isContext(row.context)
    ? Effect.succeed(row.context)
    : Effect.die(new Error(`API key ${row.id} has an unknown stored sales context ${JSON.stringify(row.context)}`))

/** Existence check of a property by id (an id that is not a UUID names no property). */
export const propertyExists = (sql: SqlClient.SqlClient, propertyId: string) =>
  UUID.test(propertyId)
    ? sql<{ id: string }>`SELECT id FROM properties WHERE id = ${propertyId}`.pipe(Effect.map((rows) => rows.length > 0))
    : Effect.succeed(false)

/** Whether a stored key may be used at `now` (epoch ms): not revoked, not expired. */
export const isUsable = (stored: StoredApiKey, now: number): boolean =>
  stored.revokedAt === null && (stored.key.expiresAt === null || stored.key.expiresAt.getTime() > now)

// The row's values are already the class's (the scopes filtered, the context checked, the columns typed by
// the table), so the constructor does not validate them again: a key is built on every uncached request.
const storedKey = (row: ApiKeyRow, context: SalesContext): StoredApiKey => ({
  key: new ApiKey({
    id: row.id,
    propertyId: row.property_id,
    scopes: row.scopes.filter(isScope),
    context,
    label: row.label,
    expiresAt: row.expires_at,
    rateLimit: row.rate_limit
  }, { disableChecks: true }),
  revokedAt: row.revoked_at
})

/** A row of `api_keys` as the key it stores (a corrupt sales context is a defect). */
export const storedKeyOf = (row: ApiKeyRow): Effect.Effect<StoredApiKey> =>
  Effect.map(salesContextOf(row), (context) => storedKey(row, context))

/**
 * The key with this hash (see `hashKey`), revoked or expired ones included; its statement's failure kept, so
 * that a caller may try a standby when no primary answers (`RateLimiter.admit`).
 */
export const findKeyByHash = (sql: SqlClient.SqlClient) => (hash: string): Effect.Effect<Option.Option<StoredApiKey>, SqlError> =>
  Effect.flatMap(
    sql<ApiKeyRow>`
      SELECT id, property_id, scopes, context, label, expires_at, revoked_at, rate_limit
      FROM api_keys WHERE key_hash = ${hash}`,
    (rows) => {
      const row = rows[0]
      return row === undefined ? Effect.succeed(Option.none<StoredApiKey>()) : Effect.map(storedKeyOf(row), Option.some)
    }
  )

export class ApiKeyRepository extends Context.Service<ApiKeyRepository>()("@hotel/persistence/platform/ApiKeyRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Stores a new key and returns its secret, the only time it is ever seen. */
    const create = (input: NewApiKey): Effect.Effect<{ readonly api_key_id: string; readonly key: string }, PropertyNotFound> =>
      Effect.gen(function*() {
        const exists = yield* propertyExists(sql, input.propertyId).pipe(Effect.orDie)
        if (!exists) {
          return yield* new PropertyNotFound({
            message: `No property has the id ${input.propertyId}`,
            property_id: input.propertyId
          })
        }
        const key = generateKey()
        const now = new Date(yield* Clock.currentTimeMillis)
        const scopes = [...new Set(input.scopes)]
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO api_keys (property_id, key_hash, scopes, context, label, expires_at, rate_limit, max_live_holds,
                                created_at)
          VALUES (${input.propertyId}, ${hashKey(key)}, ${scopes}::text[], ${input.context ?? "back_office"},
                  ${input.label ?? null}, ${input.expiresAt ?? null}, ${input.rateLimit ?? null},
                  ${input.maxLiveHolds ?? null}, ${now})
          RETURNING id`.pipe(Effect.orDie)
        return { api_key_id: row.id, key }
      }).pipe(withSpan("ApiKeyRepository.create"))

    /** Revokes a key; revoking it again keeps the first revocation time. */
    const revoke = (id: string): Effect.Effect<{ readonly api_key_id: string; readonly revoked: true }, ApiKeyNotFound> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const rows = UUID.test(id)
          ? yield* sql<{ id: string }>`
              UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${now}) WHERE id = ${id} RETURNING id`.pipe(
              Effect.orDie
            )
          : []
        if (rows.length === 0) return yield* new ApiKeyNotFound({ message: `No API key has the id ${id}`, api_key_id: id })
        return { api_key_id: rows[0].id, revoked: true as const }
      }).pipe(withSpan("ApiKeyRepository.revoke"))

    /** The key with this hash (see `hashKey`), revoked or expired ones included. */
    const findByHash = (hash: string): Effect.Effect<Option.Option<StoredApiKey>> =>
      findKeyByHash(sql)(hash).pipe(Effect.orDie, withSpan("ApiKeyRepository.findByHash"))

    return { create, revoke, findByHash } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
