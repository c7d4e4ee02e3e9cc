// The database-only baselines: `pgbench` running, per transaction, the very statements one request of ours
// runs, captured from it. A quote's: the gateway's key lookup (which takes the request's token), the pricing
// snapshot and the inventory count. A hold's: the key lookup, then the hold's transaction (pricing snapshot,
// guest and room type locks, availability count, inserts, events); the stay's dates, its guest, the
// confirmation code and the new rows' ids become pgbench expressions and variables, and the availability
// decision our server takes in Node becomes `\if` on the count, so a full night is a ROLLBACK, as our 409 is.
import * as Effect from "effect/Effect"
import { adminQuery, type CapturedHold } from "./capture.js"
import { holdPartOf, type HoldPart, inventoryIndex } from "./holdParams.js"
import { hashExpression } from "./keys.js"
import { type Param, paramText, type Recipe, type Statement } from "./recipe.js"

/** Many keys (`--keys N`): each transaction presents key `prefix || n` for a random n (see ./keys.ts). */
export interface ScriptKeys {
  readonly prefix: string
  readonly count: number
  /** The captured key's hash and id, replaced by the presented key's. */
  readonly hash: string
  readonly keyId: string
}

export interface HoldScript {
  readonly hold: CapturedHold
  readonly checkIn: string
  readonly nights: number
  /** Check-ins spread over this many days from `checkIn` (1: every hold on the same night). */
  readonly spreadDays: number
  /**
   * Many keys (`--keys N`): each transaction presents key `prefix || n` for a random n, looked up by its hash
   * (computed in SQL); the id it finds replaces the captured key's (`keyId`, in the bucket and the hold).
   */
  readonly keys?: ScriptKeys | undefined
  /** The captured hold's guest, replaced per transaction by one of `HOLD_GUESTS`'s rows picked at random. */
  readonly guest: { readonly captured: string; readonly count: number }
}

/** The table the hold script picks its guest from (n = 1…count), as the HTTP load picks one per hold. */
export const HOLD_GUESTS = "bench_hold_guests"

/** Fills `HOLD_GUESTS` with the hold workloads' guests (the scratch database's own table, dropped with it). */
export const holdGuestsTable = (url: string, guests: ReadonlyArray<string>) =>
  adminQuery(url, `CREATE TABLE ${HOLD_GUESTS} (n int PRIMARY KEY, id uuid NOT NULL)`).pipe(
    Effect.andThen(adminQuery(url, `
      INSERT INTO ${HOLD_GUESTS} (n, id)
      SELECT row_number() OVER (ORDER BY g), g FROM unnest($1::uuid[]) AS g`, [guests]))
  )

/** A script and the values of its variables (`-D name=value`), each sent as a parameter of its statement. */
export interface PgbenchScript {
  readonly text: string
  readonly defines: ReadonlyArray<string>
}

/**
 * The captured values as pgbench variables, one per distinct value: pgbench (`-M prepared` or `extended`)
 * sends each `:name` as a parameter, so the statements are planned as our server's are, with parameters, rather
 * than once for constants.
 */
const makeVariables = () => {
  const names = new Map<string, string>()
  const variable = (param: Param): string => {
    // pgbench has no NULL variable; a NULL parameter is the literal.
    if (param === null) return "NULL"
    const value = paramText(param)
    const known = names.get(value) ?? `bench_p${names.size}`
    names.set(value, known)
    return `:${known}`
  }
  return { variable, defines: () => [...names].map(([value, name]) => `${name}=${value}`) }
}

type Replace = (param: Param) => string | undefined

/** The statement with the script's expressions and variables in place of its parameters. */
const inline = (statement: Statement, replace: Replace, variable: (param: Param) => string): string =>
  statement.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const param = statement.params[Number(n) - 1] ?? null
    return replace(param) ?? variable(param)
  }).trim()

const keyReplacement = (keys: ScriptKeys) => (param: Param): string | undefined =>
  param === keys.hash
    ? hashExpression(keys.prefix, ":bench_key")
    : param === `key:${keys.keyId}`
    ? "('key:' || :bench_k_id::text)"
    : param === keys.keyId
    ? ":bench_k_id"
    : undefined

/**
 * The gateway's statements (the key lookup that takes the request's token, and any that follow it), the key
 * picked at random among many: the lookup's columns become variables `bench_k_…` for what follows.
 */
const gateway = (auth: Recipe, keys: ScriptKeys | undefined, sql: (statement: Statement) => string): ReadonlyArray<string> => {
  const [lookup, ...rest] = auth
  if (lookup === undefined) throw new Error("the captured request ran no key lookup")
  const lookupCommand = keys === undefined
    ? `${sql(lookup)};`
    : `\\set bench_key random(1, ${keys.count})\n${sql(lookup)}\n\\gset bench_k_`
  return [lookupCommand, ...rest.map((statement) => `${sql(statement)};`)]
}

/**
 * A read's statements (a quote's: the gateway's, its pricing snapshot and inventory), one transaction of
 * pgbench per request, outside any transaction block as our server runs them.
 */
export const readScript = ({ auth, keys, recipe }: {
  /** The gateway's part of `recipe`, its first statements. */
  readonly auth: Recipe
  readonly recipe: Recipe
  readonly keys: ScriptKeys | undefined
}): PgbenchScript => {
  const replace: Replace = keys === undefined ? () => undefined : keyReplacement(keys)
  const variables = makeVariables()
  const sql = (statement: Statement) => inline(statement, replace, variables.variable)
  const lines = [...gateway(auth, keys, sql), ...recipe.slice(auth.length).map((statement) => `${sql(statement)};`), ""]
  return { text: lines.join("\n"), defines: variables.defines() }
}

export const holdScript = ({ checkIn, guest, hold, keys, nights, spreadDays }: HoldScript): PgbenchScript => {
  const byKey: Replace = keys === undefined ? () => undefined : keyReplacement(keys)
  const checkOut = new Date(Date.parse(`${checkIn}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10)
  const partOf = holdPartOf({ hold, checkIn, checkOut, guestId: guest.captured })
  const expressions: Record<HoldPart, (param: Param) => string> = {
    check_in: () => `(DATE '${checkIn}' + :bench_day::int)`,
    check_out: () => `(DATE '${checkIn}' + :bench_day::int + ${nights})`,
    new_id: () => "gen_random_uuid()",
    line_ids: (param) => param === null ? "NULL" : `ARRAY(SELECT gen_random_uuid() FROM unnest('${paramText(param)}'::uuid[]))`,
    guest: () => ":bench_g_id",
    confirmation_code: () => "upper(substr(md5(random()::text), 1, 12))",
    event_id: () => "('evt_' || md5(random()::text))"
  }
  const replace: Replace = (param) => {
    const part = partOf(param)
    return part === undefined ? byKey(param) : expressions[part](param)
  }
  const variables = makeVariables()
  const sql = (statement: Statement) => inline(statement, replace, variables.variable)
  const command = (statement: Statement) => {
    const text = sql(statement)
    if (text.includes("generate_series")) {
      return `SELECT (COALESCE(min(rooms - taken), 0) > 0)::int AS bench_ok FROM (${text}) AS inventory\n\\gset`
    }
    return `${text};`
  }
  const inventoryAt = inventoryIndex(hold)
  const before = hold.transaction.slice(0, inventoryAt + 1)
  const after = hold.transaction.slice(inventoryAt + 1)
  const lines = [
    `\\set bench_day random(0, ${spreadDays - 1})`,
    ...gateway(hold.auth, keys, sql),
    // Not one of our statements: which guest holds, as the HTTP load picks one at random (before the lock).
    `\\set bench_guest random(1, ${guest.count})`,
    `SELECT id AS g_id FROM ${HOLD_GUESTS} WHERE n = :bench_guest\n\\gset bench_`,
    "BEGIN;",
    ...before.map(command),
    "\\if :bench_ok",
    ...after.map(command),
    "COMMIT;",
    "\\else",
    "ROLLBACK;",
    "\\endif",
    ""
  ]
  return { text: lines.join("\n"), defines: variables.defines() }
}
