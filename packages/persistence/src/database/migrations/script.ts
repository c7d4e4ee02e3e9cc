import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

// A migration is a script of several statements, but the driver speaks only PostgreSQL's extended protocol,
// which takes one statement at a time ("cannot insert multiple commands into a prepared statement"). So a
// script is split into its statements here and they run one after the other, in the migrator's transaction.

/** Where the statement that starts at `from` ends: its `;`, skipping strings, identifiers, bodies and comments. */
const statementEnd = (text: string, from: number): number => {
  let i = from
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    if (c === ";") return i
    if (c === "'" || c === "\"") {
      // '' (or "") inside is the quote itself: the scan ends at the first lone one.
      const close = text.indexOf(c, i + 1)
      i = close === -1 ? text.length : close + 1
    } else if (c === "-" && next === "-") {
      const close = text.indexOf("\n", i)
      i = close === -1 ? text.length : close + 1
    } else if (c === "/" && next === "*") {
      const close = text.indexOf("*/", i + 2)
      i = close === -1 ? text.length : close + 2
    } else if (c === "$") {
      // A dollar-quoted body, `$tag$ ... $tag$` (not a parameter such as `$1`).
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(text.slice(i))?.[0]
      if (tag === undefined) {
        i++
      } else {
        const close = text.indexOf(tag, i + tag.length)
        i = close === -1 ? text.length : close + tag.length
      }
    } else {
      i++
    }
  }
  return text.length
}

/** The statements of a script, in order, without their `;` and without empty ones. */
export const statementsOf = (text: string): ReadonlyArray<string> => {
  const statements: Array<string> = []
  let start = 0
  while (start < text.length) {
    const end = statementEnd(text, start)
    const statement = text.slice(start, end).trim()
    if (statement.length > 0) statements.push(statement)
    start = end + 1
  }
  return statements
}

/** Runs a migration's script, one statement at a time (a failure is the migrator's to report, naming it). */
export const runScript = (text: string): Effect.Effect<void, SqlError, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach(statementsOf(text), (statement) => sql.unsafe(statement), { discard: true }))
