// A pg_auto_failover formation (Debian's `postgresql-15-auto-failover`) in a temporary directory: a monitor and
// two nodes on free loopback ports, trust authentication, no TLS, with the failure-detection settings the
// deployment uses (`deploy/pg_auto_failover/monitor.conf` and `keeper.conf`, applied as that image's `run.sh`
// applies them: create, settings, run). As root, everything runs as the `postgres` user (initdb refuses root).
// Everything it starts is stopped, and the directory removed, by `remove`.
import { type ChildProcess, execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { isAlive } from "@hotel/persistence/database/EmbeddedPostgres"
import { freePort } from "../scale-out/servers.js"
import { asRoot, autoctl, service } from "./autoctl.js"
import { type Loss, lost } from "./loss.js"
import { includeMonitorSettings, keeperSettings } from "./settings.js"

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
  /**
   * The node whose reported and goal states are both `primary`, `wait_primary` or `single`, if one is (a node
   * lost whole keeps the last state it reported; the monitor's goal for it is `demoted`).
   */
  readonly primary: () => Promise<Node | undefined>
  /** SIGKILL to `node` as `loss` says; answers what was killed, for the log. */
  readonly lose: (node: Node, loss: Loss) => string
  /** The monitor's settings of `monitor.conf`, as the running monitor reports them. */
  readonly monitorSettings: () => Promise<Record<string, string>>
  /** Events the monitor recorded since `since`: when each node reported which state. */
  readonly events: (since: Date) => Promise<ReadonlyArray<{ readonly at: Date; readonly node: string; readonly state: string }>>
  /** Every process stopped and the directory removed; safe to call more than once. */
  readonly remove: () => Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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

const primaryStates = new Set(["primary", "wait_primary", "single"])

/** A monitor and two nodes, up with `node1` primary and `node2` its synchronous standby. */
export const createFormation = async (log: (line: string) => void): Promise<Formation> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-failover-"))
  fs.chmodSync(dir, 0o755)
  for (const sub of ["run", "config", "data"]) fs.mkdirSync(path.join(dir, sub))
  if (asRoot) await new Promise((resolve, reject) =>
    execFile("chown", ["-R", "postgres:postgres", dir], (error) => (error === null ? resolve(undefined) : reject(error))))

  const services: Array<ChildProcess> = []
  const keepers = new Map<string, ChildProcess>()
  const monitor = { name: "monitor", port: await freePort(), pgdata: path.join(dir, "monitor") }
  const nodes: ReadonlyArray<Node> = [
    { name: "node1", port: await freePort(), pgdata: path.join(dir, "node1") },
    { name: "node2", port: await freePort(), pgdata: path.join(dir, "node2") }
  ]
  let removed = false

  const nodeStates = async () =>
    new Map((await query<{ nodename: string; reportedstate: string; goalstate: string }>(monitor.port, "pg_auto_failover",
      "SELECT nodename, reportedstate::text, goalstate::text FROM pgautofailover.node"))
      .map((row) => [row.nodename, { reported: row.reportedstate, goal: row.goalstate }]))
  const states = async () => new Map([...await nodeStates()].map(([name, state]) => [name, state.reported]))

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
    const monitorConf = includeMonitorSettings(monitor.pgdata)
    if (asRoot) await new Promise((resolve, reject) =>
      execFile("chown", ["postgres:postgres", monitorConf], (error) => (error === null ? resolve(undefined) : reject(error))))
    services.push(service(dir, ["run", "--pgdata", monitor.pgdata], path.join(dir, "monitor.log")))
    const monitorUri = `postgres://autoctl_node@localhost:${monitor.port}/pg_auto_failover?sslmode=disable`
    await until("the monitor", 60_000, async () => (await states()).size >= 0)

    // As run.sh does: create, the keeper's settings, run.
    const createNode = async (node: Node, meanwhile?: () => Promise<void>) => {
      const created = autoctl(dir, [
        "create", "postgres", "--pgdata", node.pgdata, "--pgport", String(node.port), "--hostname", "localhost",
        "--name", node.name, "--dbname", "hotel", "--auth", "trust", "--no-ssl", "--pg-hba-lan", "--monitor", monitorUri
      ])
      let done = false
      const helping = meanwhile === undefined ? Promise.resolve() : (async () => {
        while (!done) {
          await meanwhile().catch(() => undefined)
          await sleep(500)
        }
      })()
      try {
        await created
      } finally {
        done = true
        await helping
      }
      for (const [name, value] of keeperSettings()) await autoctl(dir, ["config", "set", "--pgdata", node.pgdata, name, value])
      const keeper = service(dir, ["run", "--pgdata", node.pgdata], path.join(dir, `${node.name}.log`))
      services.push(keeper)
      keepers.set(node.name, keeper)
    }
    const [node1, node2] = nodes
    if (node1 === undefined || node2 === undefined) throw new Error("two nodes")
    await createNode(node1)
    await until("node1 to be the single primary", 90_000, async () => (await states()).get("node1") === "single")
    // pg_basebackup waits for a spread checkpoint, minutes on an idle primary: a CHECKPOINT ends the wait.
    const checkpoint = async () => {
      await query(node1.port, "hotel", "CHECKPOINT")
    }
    await createNode(node2, checkpoint)
    await until("node2 to be node1's synchronous standby", 120_000, async () => {
      const now = await states()
      return now.get("node1") === "primary" && now.get("node2") === "secondary"
    }, checkpoint)
    const uri = (await autoctl(dir, ["show", "uri", "--pgdata", monitor.pgdata, "--formation", "default"])).trim()
    return {
      dir,
      nodes,
      uri,
      states,
      primary: async () => {
        const now = await nodeStates()
        return nodes.find((node) => {
          const state = now.get(node.name)
          return state !== undefined && primaryStates.has(state.reported) && primaryStates.has(state.goal)
        })
      },
      lose: (node, loss) => {
        const postmaster = postmasterPid(node.pgdata)
        if (postmaster === undefined) throw new Error(`${node.name} has no running postmaster to kill`)
        return `${node.name}${lost(loss, postmaster, keepers.get(node.name)?.pid)}`
      },
      monitorSettings: async () =>
        Object.fromEntries((await query<{ name: string; setting: string }>(monitor.port, "pg_auto_failover",
          "SELECT name, setting FROM pg_settings WHERE name LIKE 'pgautofailover.%'")).map((row) => [row.name, row.setting])),
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
