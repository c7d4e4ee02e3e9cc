import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { postgresMessage } from "../../src/database/embedded/Postgres.js"
import { canEnter, maySearchAll } from "../../src/database/embedded/Runner.js"

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

describe("maySearchAll", () => {
  const postgres = { uid: 101, gid: 104 }
  const dir = (uid: number, gid: number, mode: number) => ({ uid, gid, mode })
  const root = dir(0, 0, 0o755)

  it("enters through the others' search bit", () => {
    expect(maySearchAll(postgres, [root, dir(0, 0, 0o711), dir(1000, 1000, 0o755)])).toBe(true)
  })

  it("is stopped by one owner-only directory on the way (a `mktemp -d` directory, `/root`)", () => {
    expect(maySearchAll(postgres, [root, dir(0, 0, 0o700), dir(0, 0, 0o755)])).toBe(false)
  })

  it("uses the owner's bits for its own directories and the group's for its group's", () => {
    expect(maySearchAll(postgres, [dir(101, 0, 0o700)])).toBe(true)
    expect(maySearchAll(postgres, [dir(101, 104, 0o070)])).toBe(false)
    expect(maySearchAll(postgres, [dir(0, 104, 0o750)])).toBe(true)
    expect(maySearchAll(postgres, [dir(0, 104, 0o705)])).toBe(false)
  })
})

describe("canEnter", () => {
  it("someone running PostgreSQL as themselves enters anything", () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-enter-"))
    try {
      expect(canEnter({ name: "me" }, path.join(parent, "not-yet-made"))).toBe(true)
    } finally {
      fs.rmSync(parent, { recursive: true, force: true })
    }
  })

  it("another user cannot enter below an owner-only directory, made or not", () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-enter-"))
    const stranger = { name: "stranger", ids: { uid: 4_000_001, gid: 4_000_001 } }
    try {
      fs.chmodSync(parent, 0o700)
      fs.mkdirSync(path.join(parent, "inner"), { mode: 0o755 })
      expect(canEnter(stranger, path.join(parent, "inner"))).toBe(false)
      expect(canEnter(stranger, path.join(parent, "inner", "not-yet-made"))).toBe(false)
    } finally {
      fs.rmSync(parent, { recursive: true, force: true })
    }
  })
})
