// The formation's failure-detection settings, from the files the deployment's image applies
// (`deploy/pg_auto_failover/monitor.conf` and `keeper.conf`), applied the way its `run.sh` applies them, so that
// the drill measures what is deployed.
import * as fs from "node:fs"
import * as path from "node:path"
import { root } from "../scale-out/servers.js"

const settingsDir = path.join(root, "deploy", "pg_auto_failover")

/**
 * monitor.conf copied into the monitor's data directory and included at the end of its postgresql.conf, so it
 * wins over what `pg_autoctl create monitor` wrote; answers the copy's path.
 */
export const includeMonitorSettings = (pgdata: string): string => {
  const copy = path.join(pgdata, "hotel-monitor.conf")
  fs.copyFileSync(path.join(settingsDir, "monitor.conf"), copy)
  fs.appendFileSync(path.join(pgdata, "postgresql.conf"), "include 'hotel-monitor.conf'\n")
  return copy
}

/** keeper.conf's `name = value` lines, for `pg_autoctl config set` (comments and blank lines left out). */
export const keeperSettings = (): ReadonlyArray<readonly [string, string]> =>
  fs.readFileSync(path.join(settingsDir, "keeper.conf"), "utf8").split("\n").flatMap((line) => {
    const [name, value] = line.replace(/#.*/, "").split("=").map((part) => part.trim())
    return name === undefined || name === "" || value === undefined ? [] : [[name, value] as const]
  })
