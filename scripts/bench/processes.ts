// The two HTTP servers under load, each a child process on a free port: ours exactly as `npm start` runs it
// (its command is read from the root package.json), and the raw baseline; and the `hotel` CLI for the setup.
import * as Effect from "effect/Effect"
import { execFile, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { freePort as freePortEffect } from "../../packages/persistence/test/utils/freePort.js"

const root = path.resolve(import.meta.dirname, "../..")
const tsx = path.join(root, "node_modules", ".bin", "tsx")
const bin = path.join(root, "packages", "server", "src", "bin.ts")

/** A TCP port on 127.0.0.1 that was free a moment ago (the tests' own choice of port). */
export const freePort = (): Promise<number> => Effect.runPromise(freePortEffect())

/** `hotel <args>` on the database; answers its JSON output. */
export const hotel = <A>(url: string, ...args: ReadonlyArray<string>) =>
  new Promise<A>((resolve, reject) => {
    execFile(tsx, [bin, ...args], { cwd: root, env: { ...process.env, DATABASE_URL: url } }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`hotel ${args.join(" ")}: ${stderr}`))
      else resolve(JSON.parse(stdout) as A)
    })
  })

export interface Running {
  readonly baseUrl: string
  /** SIGTERM to the process group; resolves when the process has exited (a CPU profile is written by then). */
  readonly stop: () => Promise<void>
  /** CPU milliseconds (user + system) the server process has used so far; undefined without Linux's /proc. */
  readonly cpuMillis: () => number | undefined
  /** The process's resident memory in bytes now; undefined without Linux's /proc. */
  readonly rssBytes: () => number | undefined
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces); undefined when it is gone. */
const statOf = (pid: string): ReadonlyArray<string> | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

/** CPU ms (user + system: the 12th and 13th fields) of a process and its children (the serving processes). */
const cpuMillisOf = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  const own = statOf(String(pid))
  if (own === undefined) return undefined
  const children = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    const fields = statOf(entry)
    return fields !== undefined && fields[1] === String(pid) ? [fields] : []
  })
  const ticks = [own, ...children].reduce((sum, fields) => sum + Number(fields[11]) + Number(fields[12]), 0)
  return (ticks * 1000) / ticksPerSecond
}

/**
 * CPU ms (user + system) of this process's children that have exited and been waited for (the 16th and 17th
 * fields of /proc/self/stat): read around a wrk or pgbench run, the load generator's own CPU.
 */
export const childrenCpuMillis = (): number | undefined => {
  const fields = statOf("self")
  return fields === undefined ? undefined : ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond
}

const rssBytesOf = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

const waitReady = async (url: string, exited: () => string | undefined) => {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    const failure = exited()
    if (failure !== undefined) throw new Error(failure)
    if (await fetch(url).then((res) => res.status === 200, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer within 90 s`)
}

const start = async (
  command: string,
  args: ReadonlyArray<string>,
  readyPath: string,
  env: Record<string, string>
): Promise<Running> => {
  const port = await freePort()
  let stderr = ""
  let exitCode: number | null = null
  let exited = () => {}
  const gone = new Promise<void>((resolve) => {
    exited = resolve
  })
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    // stdout is discarded; stderr (where ours logs each request) is read and only its tail kept, for the
    // message of a failed start, as a production log shipper would take the lines away.
    stdio: ["ignore", "ignore", "pipe"],
    detached: true
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  child.on("exit", (code) => {
    exitCode = code ?? -1
    exited()
  })
  const baseUrl = `http://127.0.0.1:${port}`
  const signal = () => {
    if (exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGTERM")
  }
  const stop = () => {
    signal()
    return gone
  }
  process.on("exit", signal)
  await waitReady(`${baseUrl}${readyPath}`, () => (exitCode === null ? undefined : `exited with ${exitCode}: ${stderr}`))
  return { baseUrl, stop, cpuMillis: () => cpuMillisOf(child.pid), rssBytes: () => rssBytesOf(child.pid) }
}

/** What `npm start` (`exec node <flags> <entry> serve`) passes to node, its flags included. */
const npmStartArgs = (): ReadonlyArray<string> => {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  const [exec, node, ...args] = manifest.scripts.start.split(" ")
  if (exec !== "exec" || node !== "node") throw new Error(`npm start is not "exec node ...": ${manifest.scripts.start}`)
  return args
}

/**
 * `profileDir`: run ours under V8's CPU profiler, which writes a `.cpuprofile` there when it exits; `env`:
 * more settings (the soak's `METRICS_PORT`).
 */
export const startOurs = (url: string, profileDir?: string, env: Record<string, string> = {}) =>
  start(process.execPath, [
    ...(profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]),
    ...npmStartArgs()
  // No drain delay: nothing balances over it, and a run stops it to read its CPU profile.
  ], "/health/ready", { HOTEL_DRAIN_DELAY_MS: "0", ...env, DATABASE_URL: url })

export const startBaseline = (url: string, recipesFile: string, prepared: boolean, processes = 1, pool = 20) =>
  start(process.execPath, ["--import", "tsx", path.join(root, "scripts", "bench", "baseline.ts")], "/health", {
    DATABASE_URL: url,
    RECIPES: recipesFile,
    PREPARED: prepared ? "1" : "0",
    PROCESSES: String(processes),
    POOL: String(pool)
  })
