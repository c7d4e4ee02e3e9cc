import * as SqlClient from "effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { allScopes } from "@hotel/domain"
import { ApiKeyRepository, hashKey } from "@hotel/persistence/platform/ApiKeyRepository"
import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { TestDatabase } from "../../../persistence/test/utils/TestDatabase.js"
import { builtEntry } from "../utils/processes.js"

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `hotel <args>` in a child process against the test database (`viaNpm`: as `npm run hotel -- <args>`). */
const run = (viaNpm: boolean, args: ReadonlyArray<string>) =>
  Effect.flatMap(DatabaseUrl, (url) =>
    Effect.promise(() =>
      new Promise<Run>((resolve, reject) => {
        const { INIT_CWD: _, ...env } = process.env
        // The built entry point, as the image runs it (npm would add nothing to stdout but its own banner).
        const [command, argv] = viaNpm
          ? ["npm", ["run", "--silent", "hotel", "--", ...args]] as const
          : [process.execPath, [builtEntry(), ...args]] as const
        const child = spawn(command, argv, { cwd: repoRoot, env: { ...env, DATABASE_URL: Redacted.value(url) } })
        let stdout = ""
        let stderr = ""
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
        child.on("error", reject)
        child.on("close", (code) => resolve({ code, stdout, stderr }))
      })
    ))

const hotel = (...args: ReadonlyArray<string>) => run(false, args)

/** A successful run: exit 0 and exactly one JSON document on stdout. */
const ok = <T = Record<string, unknown>>(...args: ReadonlyArray<string>) =>
  Effect.map(hotel(...args), (run): T => {
    expect(run.code, run.stderr).toBe(0)
    return JSON.parse(run.stdout) as T
  })

/** A failed run: non-zero exit, nothing on stdout, a JSON `{ error: { message } }` on stderr. */
const fails = (...args: ReadonlyArray<string>) =>
  Effect.map(hotel(...args), (run) => {
    expect(run.code).not.toBe(0)
    expect(run.stdout).toBe("")
    const body = JSON.parse(run.stderr) as { readonly error: { readonly message: string } }
    expect(typeof body.error.message).toBe("string")
    return body.error
  })

/** What `hotel demo` prints: the same document as the first `npm start` (`start.test.ts`). */
interface DemoOutput {
  readonly demo: {
    readonly property_id: string
    readonly room_types: Record<string, string>
    readonly services: Record<string, string>
    readonly rate_plans: Record<string, string>
    readonly default_rate_plan_id: string
  }
  readonly api_key: { readonly api_key_id: string; readonly key: string }
}

/** Each command is a fresh Node process compiling TypeScript (seconds each, more on a busy machine). */
const TIMEOUT = 180_000

const TestLayer = ApiKeyRepository.layer.pipe(Layer.provideMerge(TestDatabase.layer()))

const findKey = (key: string) => Effect.flatMap(ApiKeyRepository, (keys) => keys.findByHash(hashKey(key)))

layer(TestLayer, { timeout: "120 seconds" })("hotel command line", (it) => {
  let demo: DemoOutput | undefined
  const demoOutput = Effect.suspend(() =>
    demo !== undefined
      ? Effect.succeed(demo)
      : Effect.tap(ok<DemoOutput>("demo"), (output) => Effect.sync(() => (demo = output)))
  )

  it.effect("migrate prints the migrations it applied (none: the database is migrated)", () =>
    Effect.gen(function*() {
      expect(yield* ok("migrate")).toEqual({ applied: [] })
    }), TIMEOUT)

  it.effect("demo imports the bundled property and prints its ids and a key with every scope", () =>
    Effect.gen(function*() {
      const { demo: output, api_key: apiKey } = yield* demoOutput
      expect(Object.keys(output.room_types)).toEqual(["DBL", "TWN", "STE"])
      expect(Object.keys(output.services)).toEqual(expect.arrayContaining(["BRK", "TRF", "SPA"]))
      expect(output.default_rate_plan_id).toBe(output.rate_plans["BAR-DBL"])
      expect(apiKey.key).toMatch(/^hk_[A-Za-z0-9_-]{43}$/)
      const stored = yield* findKey(apiKey.key)
      expect(Option.isSome(stored)).toBe(true)
      if (Option.isSome(stored)) {
        expect(stored.value.key.id).toBe(apiKey.api_key_id)
        expect(stored.value.key.propertyId).toBe(output.property_id)
        expect([...stored.value.key.scopes].sort()).toEqual([...allScopes].sort())
        expect(stored.value.key.context).toBe("back_office")
        expect(stored.value.revokedAt).toBeNull()
      }
      // The demo property holds one block: a definite one on the Twin Rooms, at its own price.
      const sql = yield* SqlClient.SqlClient
      const blocks = yield* sql<{ room_type_id: string; status: string; price: string }>`
        SELECT room_type_id, status, price::text AS price FROM blocks WHERE property_id = ${output.property_id}`.pipe(Effect.orDie)
      expect(blocks).toEqual([{ room_type_id: output.room_types.TWN, status: "definite", price: "99" }])
      // A key may be given the block and inventory scopes.
      const scopes = ["blocks:read", "blocks:write", "inventory:read", "inventory:write"]
      const blockKey = yield* ok<{ api_key_id: string; key: string }>(
        "key", "create", "--property", output.property_id, "--scopes", scopes.join(",")
      )
      const found = yield* findKey(blockKey.key)
      expect(Option.map(found, (f) => f.key.scopes)).toEqual(Option.some(scopes))
    }), TIMEOUT)

  it.effect("property import of the demo file again keeps every id", () =>
    Effect.gen(function*() {
      const { demo: ids } = yield* demoOutput
      const imported = yield* ok("property", "import", "packages/server/demo/harbour.json")
      expect(imported).toEqual(ids)
    }), TIMEOUT)

  it.effect("through npm, as the contract runs it, stdout is the one JSON document (no npm banner)", () =>
    Effect.gen(function*() {
      const { demo: { property_id } } = yield* demoOutput
      const result = yield* run(true, ["key", "create", "--property", property_id, "--scopes", "catalog:read"])
      expect(result.code, result.stderr).toBe(0)
      expect(Object.keys(JSON.parse(result.stdout) as object).sort()).toEqual(["api_key_id", "key"])
    }), TIMEOUT)

  it.effect("key create prints { api_key_id, key }; key revoke revokes it", () =>
    Effect.gen(function*() {
      const { demo: { property_id } } = yield* demoOutput
      const scoped = yield* ok<{ api_key_id: string; key: string }>(
        "key", "create", "--property", property_id, "--scopes", "catalog:read,rates:read",
        "--context", "channel", "--label", "Channel manager", "--expires-at", "2099-01-01T00:00:00Z"
      )
      const bare = yield* ok<{ api_key_id: string; key: string }>("key", "create", "--property", property_id, "--scopes", "")
      expect(Object.keys(scoped).sort()).toEqual(["api_key_id", "key"])

      const found = yield* findKey(scoped.key)
      expect(Option.map(found, (f) => ({
        scopes: f.key.scopes,
        context: f.key.context,
        label: f.key.label,
        expiresAt: f.key.expiresAt?.toISOString()
      }))).toEqual(Option.some({
        scopes: ["catalog:read", "rates:read"],
        context: "channel",
        label: "Channel manager",
        expiresAt: "2099-01-01T00:00:00.000Z"
      }))
      const foundBare = yield* findKey(bare.key)
      expect(Option.map(foundBare, (f) => [f.key.scopes, f.key.label, f.key.expiresAt])).toEqual(Option.some([[], null, null]))

      expect(yield* ok("key", "revoke", scoped.api_key_id)).toEqual({ api_key_id: scoped.api_key_id, revoked: true })
      const revoked = yield* findKey(scoped.key)
      expect(Option.map(revoked, (f) => f.revokedAt instanceof Date)).toEqual(Option.some(true))
    }), TIMEOUT)

  it.effect("fx set and maintenance start/stop print what they set", () =>
    Effect.gen(function*() {
      const { demo: { property_id } } = yield* demoOutput
      const rate = yield* ok("fx", "set", "--property", property_id, "USD", "0.95")
      const started = yield* ok("maintenance", "start", "--until", "2099-01-01T00:00:00Z")
      expect(rate).toEqual({ property_id, currency: "USD", rate_to_base: "0.95" })
      expect(started).toMatchObject({ active: true, estimated_end: "2099-01-01T00:00:00.000Z" })
      expect(yield* ok("maintenance", "stop")).toEqual({ active: false, started_at: null, estimated_end: null })
    }), TIMEOUT)

  // A failing command exits non-zero, prints nothing on stdout and one JSON error on stderr.
  it.effect("failure: an unknown key id", () =>
    Effect.gen(function*() {
      const error = yield* fails("key", "revoke", "00000000-0000-4000-8000-000000000000")
      expect(error).toEqual({
        message: "No API key has the id 00000000-0000-4000-8000-000000000000",
        tag: "ApiKeyNotFound"
      })
    }), TIMEOUT)

  it.effect("failure: an unknown scope", () =>
    Effect.gen(function*() {
      const { demo: { property_id } } = yield* demoOutput
      const error = yield* fails("key", "create", "--property", property_id, "--scopes", "rates:read,rooms:steal")
      expect(error.message).toContain("unknown scope \"rooms:steal\"")
      // a date that does not exist is refused, not rolled over into March
      const impossible = yield* fails("key", "create", "--property", property_id, "--scopes", "", "--expires-at", "2030-02-30T00:00:00Z")
      expect(impossible.message).toContain("--expires-at: must be an ISO 8601 timestamp")
    }), TIMEOUT)

  it.effect("failure: a bad command line (missing option, unknown command)", () =>
    Effect.gen(function*() {
      expect((yield* fails("key", "create", "--scopes", "rates:read")).message).toContain("--property")
      expect((yield* fails("frobnicate")).message).toContain("Invalid subcommand")
      // a tail of a property that does not exist says so instead of printing nothing forever
      for (const property of ["notauuid", "00000000-0000-4000-8000-000000000000"]) {
        expect(yield* fails("events", "tail", "--property", property)).toMatchObject({ tag: "PropertyNotFound" })
      }
    }), TIMEOUT)

  it.effect("failure: an unreadable property file", () =>
    Effect.gen(function*() {
      const error = yield* fails("property", "import", "packages/server/test/no-such-file.json")
      expect(error.message).toContain("cannot read packages/server/test/no-such-file.json")
    }), TIMEOUT)

  // The child's stdout is a pipe here, as in a script or CI log: plain text, no terminal colour codes.
  it.effect("--version prints the package version and --help prints no colours into a pipe", () =>
    Effect.gen(function*() {
      const rootPackage = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }
      const version = yield* hotel("--version")
      expect(version.code).toBe(0)
      expect(version.stdout.trim()).toBe(rootPackage.version)
      expect(rootPackage.version).not.toBe("0.0.0")
      const help = yield* hotel("--help")
      expect(help.code).toBe(0)
      expect(help.stdout).toContain("hotel")
      expect(help.stdout).not.toContain("\u001b[")
      expect(help.stderr).not.toContain("\u001b[")
    }), TIMEOUT)
})
