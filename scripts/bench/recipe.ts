// A recipe: the SQL statements one request of our server runs, in order, as captured from the persistence
// services themselves (./capture.ts), so the raw baseline and the pgbench script run the very same SQL.

import * as PgTypes from "@effect/sql-pg/PgTypes"

/** A parameter as stored in the recipe file (a Date becomes `{ $date }`, replaced by the request's own now). */
export type Param = string | number | boolean | null | { readonly $date: string } | ReadonlyArray<Param>

export interface Statement {
  readonly sql: string
  readonly params: ReadonlyArray<Param>
}

export type Recipe = ReadonlyArray<Statement>

export interface Recipes {
  /** The captured key: its hash and id, which each request replaces by its own key's. */
  readonly auth: { readonly hash: string; readonly keyId: string }
  readonly me: Recipe
  readonly reservation: Recipe
  readonly rates3: Recipe
  /** Untraced, as `GET /rates` answers without `include=trace`. */
  readonly rates30: Recipe
  /** With each night's trace (`include=trace`). */
  readonly rates30Traced: Recipe
}

/** Whether two recipes run the same SQL texts in the same order (their parameters may differ). */
export const sameStatements = (a: Recipe, b: Recipe): boolean =>
  a.length === b.length && a.every((statement, i) => statement.sql === b[i]?.sql)

export const toParam = (value: unknown): Param => {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return { $date: value.toISOString() }
  if (Array.isArray(value)) return value.map(toParam)
  // A parameter the service typed for the driver (an array of nullable values, `ArrayParameter.ts`): its value.
  if (PgTypes.isParameter(value)) return toParam(value.value)
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value
  if (typeof value === "bigint") return value.toString()
  return JSON.stringify(value)
}

const isDate = (param: Param): param is { readonly $date: string } =>
  typeof param === "object" && param !== null && !Array.isArray(param)

/**
 * The values to send: every date is `now` (the request's time, as our server reads its Clock), or, without
 * `now`, the date as captured (as pgbench replays it).
 */
export const bind = (params: ReadonlyArray<Param>, now?: Date): Array<unknown> =>
  params.map((param) =>
    isDate(param) ? (now ?? new Date(param.$date)) : Array.isArray(param) ? bind(param, now) : param
  )

const arrayElement = (param: Param): string =>
  param === null ? "NULL" : `"${String(isDate(param) ? param.$date : param).replace(/["\\]/g, "\\$&")}"`

/** A non-null parameter's value as Postgres reads a text parameter of the statement (a pgbench variable's). */
export const paramText = (param: Exclude<Param, null>): string =>
  isDate(param) ? param.$date : Array.isArray(param) ? `{${param.map(arrayElement).join(",")}}` : String(param)
