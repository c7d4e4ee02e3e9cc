// The hold baseline: `pgbench` running, per transaction, the very statements our `POST /holds` runs (the
// gateway's key lookup and bucket, then the hold's transaction: room type lock, pricing snapshot, guest,
// availability count, inserts), captured from one real hold. The stay's dates, the confirmation code and the
// new rows' ids become pgbench expressions and variables; the availability decision our server takes in Node
// becomes `\if` on the count, so a full night is a ROLLBACK, as our 409 is.
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { CapturedHold } from "./capture.js"
import { hashExpression } from "./keys.js"
import { literal, type Param, type Statement } from "./recipe.js"

/** pgbench on PATH, else in the usual Debian/Ubuntu place; undefined when there is none. */
export const findPgbench = (): string | undefined => {
  for (const dir of (process.env["PATH"] ?? "").split(path.delimiter)) {
    if (dir.length > 0 && existsSync(path.join(dir, "pgbench"))) return path.join(dir, "pgbench")
  }
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  return versions.map((v) => path.join(root, v, "bin", "pgbench")).find((file) => existsSync(file))
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
  readonly keys?: { readonly prefix: string; readonly count: number; readonly hash: string; readonly keyId: string } | undefined
}

/**
 * A literal pgbench will not read a variable in: pgbench replaces `:name` even inside quotes, so a value
 * such as the bucket `key:d1e2…` (an id starting with a letter) is split there and concatenated.
 */
const scriptLiteral = (param: Param): string => {
  const text = literal(param)
  return /:[A-Za-z_]/.test(text) ? `(${text.replace(/:(?=[A-Za-z_])/g, ":' || '")})` : text
}

/** The statement with its parameters inlined, the hold's own values replaced by the script's variables. */
const inline = (statement: Statement, replace: (param: Param) => string | undefined): string =>
  statement.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const param = statement.params[Number(n) - 1] ?? null
    return replace(param) ?? scriptLiteral(param)
  })

const keyReplacement = (keys: NonNullable<HoldScript["keys"]>) => (param: Param): string | undefined =>
  param === keys.hash
    ? hashExpression(keys.prefix, ":bench_key")
    : param === `key:${keys.keyId}`
    ? "('key:' || :bench_k_id::text)"
    : param === keys.keyId
    ? ":bench_k_id"
    : undefined

export const holdScript = ({ checkIn, hold, keys, nights, spreadDays }: HoldScript): string => {
  const byKey = keys === undefined ? () => undefined : keyReplacement(keys)
  const checkOut = new Date(Date.parse(`${checkIn}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10)
  const replace = (param: Param): string | undefined => {
    if (param === checkIn) return `(DATE '${checkIn}' + :bench_day::int)`
    if (param === checkOut) return `(DATE '${checkIn}' + :bench_day::int + ${nights})`
    if (param === hold.reservationId) return ":bench_reservation_id"
    if (param === hold.folioId) return ":bench_folio_id"
    if (param === hold.confirmationCode) return "upper(substr(md5(random()::text), 1, 12))"
    // Event ids are made in Node, one per event: a fresh one per transaction.
    if (typeof param === "string" && /^evt_[0-9a-f]{32}$/.test(param)) return "('evt_' || md5(random()::text))"
    return byKey(param)
  }
  const command = (statement: Statement) => {
    const text = inline(statement, replace).trim()
    // The reservation, folio, lines and accommodation in one statement answering their two ids.
    if (/^\s*WITH r AS \(\s*INSERT INTO reservations\b/i.test(text)) return `${text}\n\\gset bench_`
    if (text.includes("generate_series")) {
      return `SELECT (COALESCE(min(rooms - taken), 0) > 0)::int AS bench_ok FROM (${text}) AS inventory\n\\gset`
    }
    return `${text};`
  }
  const inventoryAt = hold.transaction.findIndex((s) => s.sql.includes("generate_series"))
  if (inventoryAt < 0) throw new Error("the captured hold ran no availability count")
  const before = hold.transaction.slice(0, inventoryAt + 1)
  const after = hold.transaction.slice(inventoryAt + 1)
  const [lookup, ...bucket] = hold.auth
  if (lookup === undefined) throw new Error("the captured hold ran no key lookup")
  return [
    `\\set bench_day random(0, ${spreadDays - 1})`,
    ...(keys === undefined
      ? [command(lookup)]
      : [`\\set bench_key random(1, ${keys.count})`, `${inline(lookup, replace).trim()}\n\\gset bench_k_`]),
    ...bucket.map(command),
    "BEGIN;",
    ...before.map(command),
    "\\if :bench_ok",
    ...after.map(command),
    "COMMIT;",
    "\\else",
    "ROLLBACK;",
    "\\endif",
    ""
  ].join("\n")
}

export interface PgbenchResult {
  readonly transactions: number
  readonly seconds: number
  readonly throughput: number
  readonly latencies: ReadonlyArray<number>
  readonly failed: number
}

/** Runs `script` with `clients` connections for `seconds`; latencies from pgbench's per-transaction log. */
export const runPgbench = (
  pgbench: string,
  url: string,
  script: string,
  clients: number,
  seconds: number,
  mode: "extended" | "prepared" = "extended"
) =>
  new Promise<PgbenchResult>((resolve, reject) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hotel-pgbench-"))
    const file = path.join(dir, "hold.sql")
    writeFileSync(file, script)
    const args = [
      "-n", "-M", mode, "-c", String(clients), "-j", "2", "-T", String(seconds),
      "-f", file, "-l", `--log-prefix=${path.join(dir, "log")}`, url
    ]
    execFile(pgbench, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const latencies: Array<number> = []
        for (const log of readdirSync(dir).filter((f) => f.startsWith("log"))) {
          for (const line of readFileSync(path.join(dir, log), "utf8").split("\n")) {
            const fields = line.split(" ")
            // client_id transaction_no time script_no time_epoch time_us: `time` is the latency in µs.
            if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000)
          }
        }
        const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? "0")
        const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? "0")
        if (error !== null) {
          reject(new Error(`pgbench ran nothing: ${error?.message ?? ""}\n${stdout}\n${stderr}\n--- script ---\n${script}`))
          return
        }
        const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? "NaN")
        resolve({ transactions, seconds, throughput: Number.isNaN(tps) ? transactions / seconds : tps, latencies, failed })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
