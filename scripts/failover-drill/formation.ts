// A pg_auto_failover formation (Debian's `postgresql-15-auto-failover`) in a temporary directory: a monitor and
// two nodes on free loopback ports, trust authentication, no TLS. As root, everything runs as the `postgres`
// user (initdb refuses root). Everything it starts is stopped, and the directory removed, by `remove`.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { isAlive } from "@hotel/persistence/database/EmbeddedPostgres"
import { freePort } from "../scale-out/servers.js"

export interface Node {
  readonly name: string
  readonly port: number
  readonly pgdata: string
}

export interface Formation {
  readonly dir: string
  readonly nodes: ReadonlyArray<Node>
  /** `pg_autoctl show uri --formation default`: the nodes' multi-host URL, `target_session_attrs=read-write`. */
  readonly uri: string
  /** Node name → the state the monitor last heard from it. */
  readonly states: () => Promise<ReadonlyMap<string, string>>
  /** The node whose reported state is `primary`, `wait_primary` or `single`, if one is. */
  readonly primary: () => Promise<Node | undefined>
  /** Events the monitor recorded since `since`: when each node reported which state. */
  readonly events: (since: Date) => Promise<ReadonlyArray<{ readonly at: Date; readonly node: string; readonly state: string }>>
  /** Every process stopped and the directory removed; safe to call more than once. */
  readonly remove: () => Promise<void>
}

const asRoot = typeof process.getuid === "function" && process.getuid() === 0

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Where `pg_ctl` and friends are, next to the server this `pg_autoctl` was built for (Debian's layout). */
const postgresBin = (): string | undefined => {
  for (const version of ["15", "16", "17", "14", "13"]) {
    const dir = `/usr/lib/postgresql/${version}/bin`
    if (fs.existsSync(path.join(dir, "pg_autoctl")) || fs.existsSync(path.join(dir, "pg_ctl"))) return dir
  }
  return undefined
}

const command = (dir: string, args: ReadonlyArray<string>): [string, Array<string>, NodeJS.ProcessEnv] => {
  const bin = postgresBin()
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin === undefined ? "" : `${bin}:`}${process.env["PATH"] ?? "/usr/bin:/bin"}`,
    XDG_RUNTIME_DIR: path.join(dir, "run"),
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_DATA_HOME: path.join(dir, "data"),
    HOME: dir,
    LANG: "C.UTF-8"
  }
  if (!asRoot) return ["pg_autoctl", [...args], { ...process.env, ...env }]
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${value ?? ""}`)
  return ["runuser", ["-u", "postgres", "--", "env", ...assignments, "pg_autoctl", ...args], process.env]
}

/** `pg_autoctl <args>` to completion; its stdout. */
const autoctl = (dir: string, args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const [file, argv, env] = command(dir, args)
    execFile(file, argv, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`pg_autoctl ${args.join(" ")}: ${stderr || error.message}`)))
  })

/** `pg_autoctl <args>` left running (its own process group), its output in `log`. */
const service = (dir: string, args: ReadonlyArray<string>, log: string): ChildProcess => {
  const [file, argv, env] = command(dir, args)
  const out = fs.openSync(log, "a")
  const child = spawn(file, argv, { cwd: dir, env, stdio: ["ignore", out, out], detached: true })
  fs.closeSync(out)
  return child
}

const until = async (what: string, timeoutMs: number, check: () => Promise<boolean>, between?: () => Promise<void>) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    if (between !== undefined) await between().catch(() => undefined)
    await sleep(250)
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
}

/** The postmaster's pid of a data directory (first line of `postmaster.pid`), if it is running. */
export const postmasterPid = (pgdata: string): number | undefined => {
  try {
    const pid = Number(fs.readFileSync(path.join(pgdata, "postmaster.pid"), "utf8").split("\n")[0])
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined
  } catch {
    return undefined
  }
}

const query = async <A>(port: number, database: string, text: string): Promise<ReadonlyArray<A>> => {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database, connectionTimeoutMillis: 2_000 })
  client.on("error", () => undefined)
  try {
    await client.connect()
    return (await client.query(text)).rows as ReadonlyArray<A>
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** A monitor and two nodes, up with `node1` primary and `node2` its synchronous standby. */
export const createFormation = async (log: (line: string) => void): Promise<Formation> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-failover-"))
  fs.chmodSync(dir, 0o755)
  for (const sub of ["run", "config", "data"]) fs.mkdirSync(path.join(dir, sub))
  if (asRoot) await new Promise((resolve, reject) =>
    execFile("chown", ["-R", "postgres:postgres", dir], (error) => (error === null ? resolve(undefined) : reject(error))))

  const services: Array<ChildProcess> = []
  const monitor = { name: "monitor", port: await freePort(), pgdata: path.join(dir, "monitor") }
  const nodes: ReadonlyArray<Node> = [
    { name: "node1", port: await freePort(), pgdata: path.join(dir, "node1") },
    { name: "node2", port: await freePort(), pgdata: path.join(dir, "node2") }
  ]
  let removed = false

  const states = async () =>
    new Map((await query<{ nodename: string; reportedstate: string }>(monitor.port, "pg_auto_failover",
      "SELECT nodename, reportedstate::text FROM pgautofailover.node")).map((row) => [row.nodename, row.reportedstate]))

  const remove = async () => {
    if (removed) return
    removed = true
    for (const node of [...nodes, monitor]) {
      if (fs.existsSync(node.pgdata)) await autoctl(dir, ["stop", "--pgdata", node.pgdata]).catch(() => undefined)
    }
    const deadline = Date.now() + 20_000
    while (Date.now() < deadline && services.some((child) => child.exitCode === null && child.signalCode === null)) await sleep(100)
    for (const child of services) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL")
        } catch {
          // gone meanwhile
        }
      }
    }
    // pg_ctl starts each postmaster in a session of its own: make sure none outlives the drill.
    for (const node of [...nodes, monitor]) {
      const pid = postmasterPid(node.pgdata)
      if (pid !== undefined) process.kill(pid, "SIGKILL")
    }
    await sleep(200)
    fs.rmSync(dir, { recursive: true, force: true })
  }

  try {
    log(`formation in ${dir}: monitor :${monitor.port}, node1 :${nodes[0]?.port}, node2 :${nodes[1]?.port}`)
    await autoctl(dir, [
      "create", "monitor", "--pgdata", monitor.pgdata, "--pgport", String(monitor.port), "--hostname", "localhost",
      "--auth", "trust", "--no-ssl"
    ])
    services.push(service(dir, ["run", "--pgdata", monitor.pgdata], path.join(dir, "monitor.log")))
    const monitorUri = `postgres://autoctl_node@localhost:${monitor.port}/pg_auto_failover?sslmode=disable`
    await until("the monitor", 60_000, async () => (await states()).size >= 0)

    const createNode = (node: Node) =>
      services.push(service(dir, [
        "create", "postgres", "--pgdata", node.pgdata, "--pgport", String(node.port), "--hostname", "localhost",
        "--name", node.name, "--dbname", "hotel", "--auth", "trust", "--no-ssl", "--pg-hba-lan", "--monitor", monitorUri,
        "--run"
      ], path.join(dir, `${node.name}.log`)))
    const [node1, node2] = nodes
    if (node1 === undefined || node2 === undefined) throw new Error("two nodes")
    createNode(node1)
    await until("node1 to be the single primary", 90_000, async () => (await states()).get("node1") === "single")
    createNode(node2)
    // pg_basebackup waits for a spread checkpoint, minutes on an idle primary: a CHECKPOINT ends the wait.
    await until("node2 to be node1's synchronous standby", 120_000, async () => {
      const now = await states()
      return now.get("node1") === "primary" && now.get("node2") === "secondary"
    }, async () => {
      await query(node1.port, "hotel", "CHECKPOINT")
    })
    const uri = (await autoctl(dir, ["show", "uri", "--pgdata", monitor.pgdata, "--formation", "default"])).trim()
    return {
      dir,
      nodes,
      uri,
      states,
      primary: async () => {
        const now = await states()
        return nodes.find((node) => ["primary", "wait_primary", "single"].includes(now.get(node.name) ?? ""))
      },
      events: async (since) =>
        (await query<{ eventtime: Date; nodename: string; reportedstate: string }>(monitor.port, "pg_auto_failover",
          `SELECT eventtime, nodename, reportedstate::text FROM pgautofailover.event
           WHERE eventtime >= '${since.toISOString()}' ORDER BY eventtime`))
          .map((row) => ({ at: row.eventtime, node: row.nodename, state: row.reportedstate })),
      remove
    }
  } catch (error) {
    await remove()
    throw error
  }
}
