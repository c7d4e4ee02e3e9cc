// `npm run failover-drill`: lose the database primary under load and lose no booking. A pg_auto_failover
// formation (monitor + primary + synchronous standby, with the deployment's health checks and timeouts,
// `formation.ts`), the compiled service on its URIs (`DATABASE_URL` from `pg_autoctl show uri`,
// `DATABASE_READ_URL` the same hosts preferring the standby), a mixed load for DRILL_SECONDS (60) (`load.ts`),
// and after DRILL_KILL_AT_SECONDS (20) the primary lost as DRILL_KILL says: `node` (the default), the whole node
// at once (its keeper's process group and its postmaster's, SIGKILL: a lost host, which only the monitor's
// health checks notice), or `postmaster`, PostgreSQL alone (a crash its keeper reports at once). Then the checks
// (`checks.ts`): every confirm and hold answered 2xx is on the new primary, no night is oversold, no answer is a
// 500, writes were served again within 30 s of the kill, and the reads a standby serves were answered 2xx
// meanwhile (90% at least). Prints the figures, and the window's in one line; exits 1 when a check fails.
// Everything it started is stopped and removed, on failure too.
import { allScopes } from "@hotel/domain"
import { type CheckResult, no500, onNewPrimary, readsInWindow, window } from "./checks.js"
import { createFormation, type Formation } from "./formation.js"
import type { Loss } from "./loss.js"
import { type Demo, runLoad } from "./load.js"
import { hotelWith, type Server, startServer } from "../scale-out/servers.js"

const seconds = (name: string, fallback: number) => Number(process.env[name] ?? String(fallback)) * 1000

const lossOf = (value: string | undefined): Loss => {
  if (value === undefined || value === "" || value === "node") return "node"
  if (value === "postmaster") return "postmaster"
  throw new Error(`DRILL_KILL must be node or postmaster, not ${value}`)
}

const started = Date.now()
const log = (line: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`)

/** What `hotel demo` prints: `{ demo: <the import's ids>, api_key }`. */
interface DemoImport {
  readonly demo: {
    readonly property_id: string
    readonly room_types: Record<string, string>
    readonly rate_plans: Record<string, string>
  }
}

/** The drill's own key: a limit well above its load, so every answer is about the database, not the limit. */
const drillRateLimit = 600_000

const readUrlOf = (uri: string) =>
  uri.includes("target_session_attrs=")
    ? uri.replace(/target_session_attrs=[^&]*/, "target_session_attrs=prefer-standby")
    : `${uri}${uri.includes("?") ? "&" : "?"}target_session_attrs=prefer-standby`

let cleanup: Array<() => Promise<void>> = []

const stopAll = async () => {
  const steps = cleanup.reverse()
  cleanup = []
  for (const step of steps) await step().catch((error: unknown) => log(`cleanup: ${String(error)}`))
}

const drill = async (): Promise<boolean> => {
  const loss = lossOf(process.env["DRILL_KILL"])
  const formation: Formation = await createFormation(log)
  cleanup.push(formation.remove)
  log(`formation ready: ${formation.uri}`)
  log(`monitor settings: ${JSON.stringify(await formation.monitorSettings())}`)
  // The formation's URI names no user: the nodes trust `postgres` on loopback.
  const env = { PGUSER: "postgres", DATABASE_URL: formation.uri, DATABASE_READ_URL: readUrlOf(formation.uri), LOG_LEVEL: "warning" }
  await hotelWith("compiled", env, "migrate")
  const { demo } = JSON.parse(await hotelWith("compiled", env, "demo")) as DemoImport
  const { key } = JSON.parse(await hotelWith("compiled", env, "key", "create", "--property", demo.property_id,
    "--scopes", allScopes.join(","), "--rate-limit", String(drillRateLimit), "--label", "failover drill")) as { key: string }
  const server: Server = await startServer("compiled", formation.uri, env)
  cleanup.push(server.stop)
  log(`service ready on ${server.baseUrl} (DATABASE_READ_URL ${env.DATABASE_READ_URL})`)

  const killAfter = seconds("DRILL_KILL_AT_SECONDS", 20)
  let killAt: number | undefined
  let killed: string | undefined
  const kill = async () => {
    const primary = await formation.primary()
    if (primary === undefined) throw new Error("no running primary to kill")
    killAt = Date.now()
    killed = primary.name
    log(`SIGKILL to ${formation.lose(primary, loss)}`)
  }
  let killing: Promise<void> | undefined
  const load = await runLoad(
    { baseUrl: server.baseUrl, key, roomTypes: demo.room_types, ratePlans: demo.rate_plans } satisfies Demo,
    seconds("DRILL_SECONDS", 60),
    (elapsed) => {
      if (killing === undefined && elapsed >= killAfter) killing = kill()
    }
  )
  await killing
  if (killAt === undefined || killed === undefined) throw new Error("the primary was never killed")
  const byKind: Record<string, Record<string, number>> = {}
  for (const answer of load.answers) {
    const kind = (byKind[answer.kind] ??= {})
    const label = `${answer.status}${answer.code === undefined ? "" : ` ${answer.code}`}`
    kind[label] = (kind[label] ?? 0) + 1
  }
  log(`load done: ${load.answers.length} answers ${JSON.stringify(byKind)}`)

  const primary = await formation.primary()
  if (primary === undefined) throw new Error("no primary after the load")
  const promoted = (await formation.events(new Date(killAt - 1000)))
    .find((event) => event.node === primary.name && (event.state === "wait_primary" || event.state === "primary"))
  const promotedAfter = promoted === undefined ? null : Number(((promoted.at.getTime() - killAt) / 1000).toFixed(2))
  const writes = window(load, killAt)
  const reads = readsInWindow(load, killAt)
  const results: Array<CheckResult> = [
    { name: "failover", ok: primary.name !== killed, figures: { loss, killed, new_primary: primary.name, promoted_after_s: promotedAfter } },
    writes,
    no500(load),
    ...await onNewPrimary(primary.port, load, killAt),
    reads
  ]
  for (const result of results) log(`${result.ok ? "PASS" : "FAIL"} ${result.name}: ${JSON.stringify(result.figures)}`)
  log(`window (${loss}): kill to promotion ${promotedAfter ?? "?"} s, kill to first 2xx write ${
    writes.figures["kill_to_first_2xx_write_s"] ?? "?"} s, reads answered 2xx ${reads.figures["answered_2xx"]}/${
    reads.figures["requests"]} (${(Number(reads.figures["share"]) * 100).toFixed(1)}%)`)
  return results.every((result) => result.ok)
}

const onSignal = (signal: NodeJS.Signals) => {
  log(`${signal}: stopping everything`)
  void stopAll().then(() => process.exit(1))
}
process.once("SIGINT", onSignal)
process.once("SIGTERM", onSignal)

drill().then(
  async (ok) => {
    await stopAll()
    log(`${ok ? "drill passed" : "drill FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    process.exit(ok ? 0 : 1)
  },
  async (error: unknown) => {
    log(`drill failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`)
    await stopAll()
    process.exit(1)
  }
)
