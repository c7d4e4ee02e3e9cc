import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

// `npm start` without DATABASE_URL when the embedded PostgreSQL cannot start: exit status 1 and one paragraph
// on stderr naming the cause (PostgreSQL's own words) and the way out through DATABASE_URL; no stack, no
// JSON, no unhandled event.

const root = path.resolve(import.meta.dirname, "../../../..")
const tsx = path.join(root, "node_modules", ".bin", "tsx")
const bin = path.join(root, "packages", "server", "src", "bin.ts")

interface Run {
  readonly code: number | null
  readonly stderr: string
}

/** `hotel serve` with the embedded database on `dataDir` and `pgPort`, and no DATABASE_URL. */
const serveEmbedded = (dataDir: string, pgPort: number) =>
  new Promise<Run>((resolve) => {
    const { DATABASE_URL: _url, TEST_DATABASE_URL: _test, ...inherited } = process.env
    const env = { ...inherited, HOTEL_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: "0" }
    const child = execFile(tsx, [bin, "serve"], { cwd: root, env, timeout: 90_000 }, (_error, _stdout, stderr) =>
      resolve({ code: child.exitCode, stderr }))
  })

/** A port held by another listener for the duration of `f`. */
const withTakenPort = async <A>(f: (port: number) => Promise<A>): Promise<A> => {
  const holder = net.createServer()
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve))
  const address = holder.address()
  try {
    return await f(typeof address === "object" && address !== null ? address.port : 0)
  } finally {
    await new Promise<void>((resolve) => holder.close(() => resolve()))
  }
}

/** A fresh data directory, removed afterwards with the cluster it may point to (run as root, see docs). */
const withDataDir = async <A>(f: (dir: string) => Promise<A>): Promise<A> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-failing-"))
  fs.chmodSync(dir, 0o755)
  try {
    return await f(dir)
  } finally {
    const link = path.join(dir, "postgres")
    if (fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
      fs.rmSync(path.resolve(dir, fs.readlinkSync(link)), { recursive: true, force: true })
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const expectOneParagraph = (run: Run, ...cause: ReadonlyArray<string>) => {
  expect(run.code).toBe(1)
  const text = run.stderr.trim()
  expect(text).toMatch(/^Could not start the embedded PostgreSQL: /)
  expect(text).not.toContain("\n")
  for (const words of cause) expect(text).toContain(words)
  expect(text).toContain("set DATABASE_URL")
}

describe("npm start when the embedded PostgreSQL cannot start", () => {
  it("names the taken port", () =>
    withDataDir((dir) =>
      withTakenPort(async (port) => {
        const run = await serveEmbedded(dir, port)
        expectOneParagraph(run, `127.0.0.1:${port}`, "Address already in use")
      })
    ), 120_000)

  it("names a data directory made by another PostgreSQL version", () =>
    withDataDir(async (dir) => {
      fs.mkdirSync(path.join(dir, "postgres"), { mode: 0o700 })
      fs.writeFileSync(path.join(dir, "postgres", "PG_VERSION"), "15\n")
      const run = await serveEmbedded(dir, 1)
      expectOneParagraph(run, "database files are incompatible with server", "PostgreSQL version 15")
    }), 120_000)
})
