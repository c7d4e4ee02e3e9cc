import * as Effect from "effect/Effect"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { freePort as freePortEffect } from "../../packages/persistence/test/utils/freePort.js"

// API processes for the operational scripts: the compiled CLI (`node dist/hotel.js`, what the image runs) or
// the TypeScript sources through tsx (what `npm start` runs).

export const root = path.resolve(import.meta.dirname, "../..")

export type Runtime = "compiled" | "tsx"

const command = (runtime: Runtime, args: ReadonlyArray<string>): [string, Array<string>] =>
  runtime === "compiled"
    ? [process.execPath, [path.join(root, "dist", "hotel.js"), ...args]]
    : [path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "packages", "server", "src", "bin.ts"), ...args]]

/** A TCP port on 127.0.0.1 that was free a moment ago (the tests' own choice of port). */
export const freePort = (): Promise<number> => Effect.runPromise(freePortEffect())

/** `hotel <args>` to completion (`env` added to the environment); rejects with its stderr on a non-zero exit. */
export const hotelWith = (
  runtime: Runtime,
  env: Record<string, string>,
  ...args: ReadonlyArray<string>
): Promise<string> =>
  new Promise((resolve, reject) => {
    const [file, argv] = command(runtime, args)
    execFile(file, argv, { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`hotel ${args.join(" ")}: ${stderr}`)))
  })

/** `hotel <args>` on `databaseUrl` to completion; rejects with its stderr on a non-zero exit. */
export const hotel = (runtime: Runtime, databaseUrl: string, ...args: ReadonlyArray<string>): Promise<string> =>
  hotelWith(runtime, { DATABASE_URL: databaseUrl }, ...args)

export interface Server {
  readonly baseUrl: string
  /** Milliseconds from spawn to the first 200 on `/health/live`. */
  readonly startupMs: number
  /** CPU milliseconds (user + system) its processes had used by then (Linux; NaN elsewhere). */
  readonly startupCpuMs: number
  readonly stop: () => Promise<void>
}

/**
 * CPU time used so far by every process of a process group, from /proc (clock ticks of 10 ms): wall time on
 * a busy machine says more about the other processes than about this one.
 */
const groupCpuMs = (pgid: number): number => {
  if (!fs.existsSync("/proc/self/stat")) return Number.NaN
  let ticks = 0
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // exited meanwhile
    }
  }
  return ticks * 10
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const live = (baseUrl: string): Promise<boolean> =>
  fetch(`${baseUrl}/health/live`).then((res) => res.status === 200, () => false)

const stopper = (child: ChildProcess) => (): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve()
    const pid = child.pid
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pid, name)
      } catch {
        // already gone
      }
    }
    const force = setTimeout(() => signal("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(force)
      resolve()
    })
    signal("SIGTERM")
  })

/**
 * `hotel serve` on a free port of 127.0.0.1 and `databaseUrl` (`env` added to its environment), resolved once
 * `/health/live` answers 200.
 */
export const startServer = async (runtime: Runtime, databaseUrl: string, env: Record<string, string> = {}): Promise<Server> => {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const [file, argv] = command(runtime, ["serve"])
  let output = ""
  const started = performance.now()
  const child = spawn(file, argv, {
    cwd: root,
    // No drain delay: the proxy in front does not check readiness, and `stop` kills after 5 s.
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", HOTEL_DRAIN_DELAY_MS: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so stopping it also stops tsx's node child.
    detached: true
  })
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
  const stop = stopper(child)
  const deadline = started + 60_000
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`hotel serve exited with ${child.exitCode}:\n${output}`)
    if (await live(baseUrl)) {
      const startupMs = performance.now() - started
      return { baseUrl, startupMs, startupCpuMs: child.pid === undefined ? Number.NaN : groupCpuMs(child.pid), stop }
    }
    await sleep(5)
  }
  await stop()
  throw new Error(`hotel serve did not answer /health/live within 60 s:\n${output}`)
}
