import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { demoFile } from "../../src/cli/Demo.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// The README's walk-through is its ```bash blocks, in order. They run here exactly as written, twice in one
// shell against the real server holding the demo property, so the README cannot drift from the API and can
// be pasted twice. The harness adds only `set -euo pipefail` and makes curl fail on an HTTP error status.

const root = path.resolve(import.meta.dirname, "../../../..")
const readme = readFileSync(path.join(root, "README.md"), "utf8")

const flowBlocks = (markdown: string): ReadonlyArray<string> =>
  [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "")

interface BashResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a script with bash, asynchronously: the server answering it lives in this process. */
const bash = (script: string, env: Record<string, string>) =>
  Effect.callback<BashResult>((resume) => {
    execFile(
      "bash",
      ["-c", script],
      { cwd: root, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resume(Effect.succeed({ code, stdout, stderr }))
      }
    )
  })

const harness = [
  "set -euo pipefail",
  "curl() { command curl --fail-with-body \"$@\"; }"
].join("\n")

const reservationIdOf = (output: string): string | undefined =>
  /"reservation_id":"([0-9a-f-]{36})","status":"cancelled"/.exec(output)?.[1]

layer(TestApiLive, { excludeTestServices: true, timeout: "240 seconds" })("README walk-through", (it) => {
  it.effect("runs from the README's own blocks twice in a row against a real server", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const demo = yield* api.importProperty(JSON.parse(readFileSync(demoFile, "utf8")))
      expect(readme).toContain(demo.property_id)
      const key = yield* api.createKey({ propertyId: demo.property_id })

      const blocks = flowBlocks(readme)
      expect(blocks.length).toBeGreaterThanOrEqual(5)
      const flow = blocks.join("\n")
      const env = { API: api.baseUrl, KEY: key }

      const first = yield* bash(`${harness}\n${flow}`, env)
      expect(first.stderr).toBe("")
      expect(first.code).toBe(0)
      const second = yield* bash(`${harness}\n${flow}\n${flow}`, env)
      expect(second.stderr).toBe("")
      expect(second.code).toBe(0)

      for (const output of [first.stdout, second.stdout]) {
        expect(output).toMatch(/^idempotent-replayed: true/im)
        expect(output).toContain("\"status\":\"confirmed\"")
        expect(output).toContain("\"already_confirmed\":false")
        expect(output).toMatch(/"refund_due_minor":[1-9]\d*/)
      }
      expect(reservationIdOf(first.stdout)).toBeDefined()

      // Three runs, three bookings and three pickups, all cancelled, and their blocks too: the walk-through leaves
      // the inventory as it found it.
      const client = yield* api.clientFor(key)
      const cancelled = yield* client.reservationReads.list({ query: { status: "cancelled", limit: 100 } })
      expect(cancelled.data).toHaveLength(6)
      const groups = yield* client.blocks.list({ query: { status: "cancelled" } })
      expect(groups.data).toHaveLength(3)
      const live = yield* client.reservationReads.list({ query: { status: "confirmed" } })
      expect(live.data).toHaveLength(0)
    }), 240_000)
})
