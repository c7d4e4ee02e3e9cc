import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { inject } from "vitest"
import { freePort } from "../../../persistence/test/utils/freePort.js"

// Other processes on the test's database: a second API server (`hotel serve`) and admin commands.

const root = path.resolve(import.meta.dirname, "../../../..")

declare module "vitest" {
  export interface ProvidedContext {
    /** The compiled `hotel` entry point, built once for the run (`scripts/vitest/bundle.ts`). */
    bundle: string
  }
}

/** The compiled `hotel` (`scripts/vitest/bundle.ts` builds it once per run): the processes run what ships. */
export const builtEntry = (): string => inject("bundle")

/**
 * `npm start`'s command after `node` and before `serve`, read from the root package.json's `start` script
 * (`exec node <flags> <entry> serve`), so the tests start the server with the flags it ships with.
 */
const npmStart = (() => {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  const words = manifest.scripts.start.split(" ")
  if (words[0] !== "exec" || words[1] !== "node" || words.at(-1) !== "serve") {
    throw new Error(`npm start is not "exec node ... serve": ${manifest.scripts.start}`)
  }
  return words.slice(2, -1)
})()

/**
 * The image's node flags, read from the Dockerfile's `CMD ["node", <flags>, "dist/hotel.js", "serve"]`, so the
 * built entry point serves as the image runs it.
 */
const imageFlags = (() => {
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(path.join(root, "Dockerfile"), "utf8"))?.[1]
  const words = cmd === undefined ? [] : (JSON.parse(cmd) as Array<string>)
  if (words[0] !== "node" || words.at(-2) !== "dist/hotel.js" || words.at(-1) !== "serve") {
    throw new Error(`The Dockerfile's CMD is not ["node", ..., "dist/hotel.js", "serve"]: ${cmd}`)
  }
  return words.slice(1, -2)
})()

/**
 * A small pool unless a test sets one: several test files run at once, some with two processes of two servers
 * each, on one PostgreSQL whose `max_connections` may be the default 100 (the machine's own server).
 */
const testPoolSize = "5"

const environment = (url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: url,
  HOTEL_DB_POOL_SIZE: testPoolSize,
  ...extra
})

export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** `hotel <args>` (as `node dist/hotel.js <args>`, the built entry point) on the test's database. */
export const hotel = (...args: ReadonlyArray<string>) => hotelWith({}, ...args)

/** `hotel <args>` on the test's database with `extra` in its environment (which may override DATABASE_URL). */
export const hotelWith = (extra: Record<string, string>, ...args: ReadonlyArray<string>) =>
  Effect.flatMap(DatabaseUrl, (url) =>
    Effect.callback<CliResult>((resume) => {
      execFile(
        process.execPath,
        [builtEntry(), ...args],
        { cwd: root, env: environment(Redacted.value(url), extra), timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
          resume(Effect.succeed({ code, stdout, stderr }))
        }
      )
    }))

/** A server not ready in time (not one that exited: that is a failed start, and fails the test at once). */
class NotReadyInTime extends Data.TaggedError("NotReadyInTime")<{ readonly output: string }> {}

/**
 * How long a started server has to answer ready: it takes a few seconds on a loaded machine, and this bound
 * leaves a second try inside a test's minute. One that starts its own embedded PostgreSQL (initdb first) gets
 * longer, and one try: a second would find the first one's data directory.
 */
const readyWithinMs = 25_000
const embeddedReadyWithinMs = 100_000

/** Whether the server starts its own embedded PostgreSQL (an empty `DATABASE_URL`). */
const embedded = (extra: Record<string, string>): boolean => extra["DATABASE_URL"] === ""

const readyWithin = (extra: Record<string, string>): number => embedded(extra) ? embeddedReadyWithinMs : readyWithinMs

const waitReady = (baseUrl: string, child: ChildProcess, output: () => string, withinMs: number) =>
  Effect.gen(function*() {
    const deadline = Date.now() + withinMs
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        return yield* Effect.die(new Error(`hotel serve exited with ${child.exitCode}:\n${output()}`))
      }
      // Each poll bounded: a connection accepted and never answered must not outlast the deadline.
      const ready = yield* Effect.promise(() =>
        fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then((res) => res.status === 200, () => false)
      )
      if (ready) return
      yield* Effect.sleep("50 millis")
    }
    return yield* new NotReadyInTime({ output: output() })
  })

export interface ServeProcess {
  readonly baseUrl: string
  /** What the process printed on stdout so far (the demo document, when it imported one). */
  readonly stdout: () => string
  /** What the process printed on stderr so far (its logs). */
  readonly stderr: () => string
  /** Everything it printed so far, stdout and stderr interleaved. */
  readonly output: () => string
  /** `kill -9` of the process group: a crash, nothing finishes. */
  readonly crash: () => void
  /** Sends a signal to the process group (`SIGKILL` to crash it mid-work). */
  readonly kill: (signal: NodeJS.Signals) => void
  /** The server's own process (node, no wrapper). */
  readonly pid: number
  /** Sends a signal to the server's process alone (what a supervisor's `kill <pid>` does). */
  readonly signal: (signal: NodeJS.Signals) => void
  /** Waits for the process to exit; answers its exit code, or the signal that ended it. */
  readonly exited: Effect.Effect<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
}

/**
 * An API process (`hotel serve` on a free port) on the test's database (`extra` may override the environment,
 * e.g. an empty `DATABASE_URL` for the embedded server), ready when acquired, stopped when the scope closes.
 * It runs the built entry point, or with `sources` the TypeScript sources exactly as `npm start` does.
 */
const startServeOnce = (extra: Record<string, string>, sources: boolean, ready: boolean) => Effect.gen(function*() {
  const url = yield* DatabaseUrl
  const port = yield* freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  let output = ""
  let stdout = ""
  let stderr = ""
  const child = yield* Effect.acquireRelease(
    Effect.sync(() => {
      // Node itself on the built entry point (as the image runs it): the pid is the server's, no wrapper between.
      const entry = sources ? npmStart : [...imageFlags, builtEntry()]
      const started = spawn(process.execPath, [...entry, "serve"], {
        cwd: root,
        // No drain delay unless a test sets one: nothing balances over these servers, and a stop that served on
        // for the default 5 s would outlast the release's 5 s before SIGKILL.
        env: environment(Redacted.value(url), {
          PORT: String(port),
          HOST: "127.0.0.1",
          HOTEL_DRAIN_DELAY_MS: "0",
          ...extra
        }),
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, so that stopping it stops what it started too (an embedded PostgreSQL).
        detached: true
      })
      started.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8")
        output += chunk.toString("utf8")
      })
      started.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8")
        output += chunk.toString("utf8")
      })
      return started
    }),
    (started) =>
      Effect.callback<void>((resume) => {
        if (started.exitCode !== null || started.signalCode !== null) return resume(Effect.void)
        const signal = (name: NodeJS.Signals) => {
          try {
            if (started.pid !== undefined) process.kill(-started.pid, name)
          } catch {
            // already gone
          }
        }
        const force = setTimeout(() => signal("SIGKILL"), 5_000)
        started.once("exit", () => {
          clearTimeout(force)
          resume(Effect.void)
        })
        signal("SIGTERM")
      })
  )
  if (ready) {
    yield* waitReady(baseUrl, child, () => output, readyWithin(extra)).pipe(
      Effect.tapError(() => Effect.sync(() => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, "SIGKILL")))
    )
  }
  const crash = () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGKILL")
  }
  const kill = (signal: NodeJS.Signals) => {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  }
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name)
  }
  const exited = Effect.callback<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return resume(Effect.succeed({ code: child.exitCode, signal: child.signalCode }))
    }
    child.once("exit", (code, name) => resume(Effect.succeed({ code, signal: name })))
  })
  return { baseUrl, stdout: () => stdout, stderr: () => stderr, output: () => output, crash, kill, pid: child.pid ?? 0, signal, exited } satisfies ServeProcess
})

/**
 * `startServeOnce`, tried a second time (on another port) when the first server was not ready in time, its
 * output written to stderr so the run's log keeps it: a start stuck once on a loaded machine is reported, not
 * the test's timeout. A second stuck start fails the test with both outputs; one with its own embedded
 * PostgreSQL gets one try.
 */
const startServe = (extra: Record<string, string>, sources: boolean, ready = true) => {
  const once = startServeOnce(extra, sources, ready)
  const stuck = (outputs: ReadonlyArray<string>) =>
    Effect.die(new Error(`hotel serve was not ready within ${readyWithin(extra)} ms, ${outputs.length} times:\n${outputs.join("\n---\n")}`))
  if (embedded(extra)) return once.pipe(Effect.catchTag("NotReadyInTime", (first) => stuck([first.output])))
  return once.pipe(Effect.catchTag("NotReadyInTime", (first) =>
    Effect.sync(() => process.stderr.write(`hotel serve was not ready within ${readyWithinMs} ms; starting another. Its output:\n${first.output}\n`)).pipe(
      Effect.andThen(once),
      Effect.catchTag("NotReadyInTime", (second) => stuck([first.output, second.output]))
    )))
}

/** An API process of the built entry point (`node dist/hotel.js serve`, as the image runs it). */
export const serveProcessWith = (extra: Record<string, string>) => startServe(extra, false)

/** The same, answered as soon as it is spawned: a test that connects while it starts. */
export const startingProcessWith = (extra: Record<string, string>) => startServe(extra, false, false)

/** An API process of the sources, as `npm start` runs them (`node --import tsx .../bin.ts serve`). */
export const npmStartProcessWith = (extra: Record<string, string>) => startServe(extra, true)

/** An API process on the test's database. */
export const serveProcess = serveProcessWith({})

/** A second API process on the test's database; returns its base URL. */
export const secondServer = Effect.map(serveProcess, (server) => server.baseUrl)

/**
 * Waits (up to 50 s, within a test's minute) until the primary of `PROCESSES=N` has logged `count` serving
 * processes ready: the API's port answers as soon as one of them is, and a process killed before it is ready is
 * a failed start, not a replacement. A primary that exits meanwhile (a process that could not start) fails it at
 * once, with what the server printed.
 */
export const processesReady = (server: ServeProcess, count: number) => {
  const readyLines = () => (server.output().match(/Serving process \d+ \(pid \d+\) is ready/g) ?? []).length
  const logged = Effect.retry(
    Effect.filterOrFail(Effect.sync(readyLines), (n) => n >= count, () => "not yet"),
    Schedule.spaced("100 millis").pipe(Schedule.upTo({ duration: "50 seconds" }))
  ).pipe(
    Effect.catch(() => Effect.die(new Error(`${readyLines()} of ${count} serving processes ready after 50 s:\n${server.output()}`)))
  )
  const exited = Effect.flatMap(server.exited, (exit) =>
    Effect.die(new Error(`hotel serve exited (code ${exit.code}, signal ${exit.signal}) before ${count} processes were ready:\n${server.output()}`)))
  return Effect.asVoid(Effect.raceFirst(logged, exited))
}

/** Waits (at most `seconds`) for the process to exit: its exit code, or the signal that ended it. */
export const exitWithin = (server: ServeProcess, seconds: number) =>
  server.exited.pipe(
    Effect.timeoutOrElse({
      duration: `${seconds} seconds`,
      orElse: () => Effect.die(new Error(`the server did not exit within ${seconds} s`))
    })
  )
