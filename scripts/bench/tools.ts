// The native load generators the bench drives: `wrk` for HTTP (installed from Debian's package when it is
// missing and the bench runs as root) and PostgreSQL's `pgbench` for the database alone.
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import * as path from "node:path"

/** The executable `name` on PATH; undefined when there is none. */
const onPath = (name: string): string | undefined =>
  (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .map((dir) => path.join(dir, name))
    .find((file) => path.isAbsolute(file) && existsSync(file))

/** pgbench on PATH, else in the usual Debian/Ubuntu place; undefined when there is none. */
export const findPgbench = (): string | undefined => {
  const found = onPath("pgbench")
  if (found !== undefined) return found
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  return versions.map((v) => path.join(root, v, "bin", "pgbench")).find((file) => existsSync(file))
}

const aptInstall = (pkg: string) => {
  const run = (...args: ReadonlyArray<string>) => execFileSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"] })
  try {
    run("install", "-y", pkg)
  } catch {
    // A fresh image has no package lists yet.
    run("update")
    run("install", "-y", pkg)
  }
}

/**
 * wrk on PATH; when missing, installed with `apt-get install -y wrk` if the bench runs as root on a system
 * with apt-get. Throws with what to do otherwise.
 */
export const ensureWrk = (): string => {
  const found = onPath("wrk")
  if (found !== undefined) return found
  const advice = "the bench needs wrk, the HTTP load generator (Debian/Ubuntu: apt-get install -y wrk, as root)"
  if (process.getuid?.() !== 0 || onPath("apt-get") === undefined) throw new Error(`wrk not found: ${advice}`)
  console.log("bench: wrk not found, installing Debian's package (apt-get install -y wrk)")
  try {
    aptInstall("wrk")
  } catch (error) {
    throw new Error(`wrk not found and apt-get could not install it (${String(error)}): ${advice}`)
  }
  const installed = onPath("wrk")
  if (installed === undefined) throw new Error(`wrk still not on PATH after apt-get: ${advice}`)
  return installed
}
