// The keys the load presents. One key (the default) is what a single integrator looks like: after the first
// request our server finds it in its key cache and serves it from a leased block of its bucket. `--keys N`
// looks like a service with many integrators: N keys of the bench property, one picked at random per
// request, so our server's key cache and leases rarely hit and every request looks its key up and takes from
// its bucket in Postgres, as the baselines always do.
//
// The many keys' secrets are `prefix + n` (n from 1 to N), so pgbench can name a random one in SQL:
// `sha256` of the secret is the stored hash, computed by the database instead of by Node.
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { adminQuery } from "./capture.js"

export interface KeySet {
  /** The secrets, as the load sends them. */
  readonly secrets: ReadonlyArray<string>
  /** The secrets are `prefix + n`, n from 1 to `secrets.length` (absent for the one key made by the CLI). */
  readonly prefix: string | undefined
}

export const oneKey = (secret: string): KeySet => ({ secrets: [secret], prefix: undefined })

/** The stored hash of secret `prefix || n`, as an SQL expression of an integer expression `n`. */
export const hashExpression = (prefix: string, n: string): string =>
  `encode(sha256(convert_to('${prefix}' || ${n}, 'UTF8')), 'hex')`

/**
 * `count` keys of the property with `scopes`, each with the contract's default limit (600 a minute: the load
 * spreads over so many keys that none comes near it) and no hold cap of its own, expiring in 2 hours.
 */
export const manyKeys = (url: string, propertyId: string, scopes: ReadonlyArray<string>, count: number) =>
  Effect.gen(function*() {
    const prefix = `hk_bench${randomBytes(6).toString("hex")}_`
    yield* adminQuery(url, `
      INSERT INTO api_keys (property_id, key_hash, scopes, context, label, expires_at, created_at)
      SELECT $1, ${hashExpression(prefix, "n")}, $2::text[], 'back_office', 'benchmark ' || n,
             now() + interval '2 hours', now()
      FROM generate_series(1, $3::int) AS n`, [propertyId, scopes, count])
    return { secrets: Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`), prefix } satisfies KeySet
  })
