import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { postgresMessage } from "../src/embedded/Postgres.js"
import { canEnter } from "../src/embedded/Runner.js"

describe("postgresMessage", () => {
  it("keeps what went wrong, with its hint, on one line", () => {
    const log = [
      `LOG:  could not bind IPv4 address "127.0.0.1": Address already in use`,
      "HINT:  Is another postmaster already running on port 54329? If not, wait a few seconds and retry.",
      `WARNING:  could not create listen socket for "127.0.0.1"`,
      "FATAL:  could not create any TCP/IP sockets",
      "LOG:  database system is shut down",
      ""
    ].join("\n")
    expect(postgresMessage(log)).toBe(
      `could not bind IPv4 address "127.0.0.1": Address already in use (Is another postmaster already running on ` +
        `port 54329? If not, wait a few seconds and retry.); could not create listen socket for "127.0.0.1"; ` +
        "could not create any TCP/IP sockets"
    )
  })

  it("drops a log line prefix", () => {
    expect(postgresMessage(`2026-01-01 10:00:00 UTC [12] FATAL:  data directory "/d" has wrong ownership\n`))
      .toBe(`data directory "/d" has wrong ownership`)
  })

  it("answers the last lines of a log without PostgreSQL severities (initdb)", () => {
    expect(postgresMessage(`initdb: error: could not create directory "/d": Permission denied\n`))
      .toBe(`initdb: error: could not create directory "/d": Permission denied`)
  })
})

describe("canEnter", () => {
  const withDir = (mode: number, f: (dir: string) => void) => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-enter-"))
    try {
      fs.chmodSync(parent, 0o755)
      const dir = path.join(parent, "inner")
      fs.mkdirSync(path.join(dir, "deeper"), { recursive: true })
      fs.chmodSync(dir, mode)
      f(dir)
    } finally {
      fs.rmSync(parent, { recursive: true, force: true })
    }
  }
  // Another user, in the caller's group or not (only the modes decide; nothing runs as them).
  const stranger = { name: "stranger", ids: { uid: 4_000_001, gid: 4_000_001 } }
  const groupMate = { name: "mate", ids: { uid: 4_000_001, gid: process.getgid?.() ?? 0 } }

  it("someone running PostgreSQL as themselves enters anything", () => {
    withDir(0o700, (dir) => expect(canEnter({ name: "me" }, path.join(dir, "deeper"))).toBe(true))
  })

  it("another user cannot enter below an owner-only directory", () => {
    withDir(0o700, (dir) => {
      expect(canEnter(stranger, dir)).toBe(false)
      expect(canEnter(stranger, path.join(dir, "deeper", "not-yet-made"))).toBe(false)
      expect(canEnter(stranger, path.dirname(dir))).toBe(true)
    })
  })

  it("another user enters through the group or the others' search bit", () => {
    withDir(0o750, (dir) => {
      expect(canEnter(groupMate, path.join(dir, "deeper"))).toBe(true)
      expect(canEnter(stranger, path.join(dir, "deeper"))).toBe(false)
    })
    withDir(0o711, (dir) => expect(canEnter(stranger, path.join(dir, "deeper"))).toBe(true))
  })
})
