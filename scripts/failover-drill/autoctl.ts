// `pg_autoctl` as the drill runs it: with its XDG directories in the formation's directory and, as root, as the
// `postgres` user (initdb refuses root).
import { type ChildProcess, execFile, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

export const asRoot = typeof process.getuid === "function" && process.getuid() === 0

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
export const autoctl = (dir: string, args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const [file, argv, env] = command(dir, args)
    execFile(file, argv, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`pg_autoctl ${args.join(" ")}: ${stderr || error.message}`)))
  })

/** `pg_autoctl <args>` left running (its own process group), its output in `log`. */
export const service = (dir: string, args: ReadonlyArray<string>, log: string): ChildProcess => {
  const [file, argv, env] = command(dir, args)
  const out = fs.openSync(log, "a")
  const child = spawn(file, argv, { cwd: dir, env, stdio: ["ignore", out, out], detached: true })
  fs.closeSync(out)
  return child
}
