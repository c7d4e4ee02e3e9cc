import { expect, layer } from "@effect/vitest"
import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { spawn } from "node:child_process"
import * as path from "node:path"
import { clientOf } from "../utils/client.js"
import { builtEntry } from "../utils/processes.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"
import { allEvents } from "./feed.js"
import { eventually } from "./receiver.js"

// `hotel events tail` prints each event as one JSON line as it commits.

const root = path.resolve(import.meta.dirname, "../../../..")

layer(TestApiLive, { excludeTestServices: true })("hotel events tail", (it) => {
  it.effect("prints events committed after it started, as JSON lines in sequence order", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const url = Redacted.value(yield* DatabaseUrl)
      const property = yield* api.importProperty()
      const key = yield* api.createKey({ propertyId: property.property_id })
      const client = yield* clientOf(api, { key })
      const guest = () => client.guests.create({ headers: {}, payload: { first_name: "T", last_name: "Ail" } })
      yield* guest() // before the tail starts: not printed
      let stdout = ""
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          const child = spawn(
            process.execPath,
            [builtEntry(), "events", "tail", "--property", property.property_id],
            { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "pipe", "inherit"], detached: true }
          )
          child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
          return child
        }),
        (child) => Effect.sync(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"))
      )
      // The tail starts from the latest event once it runs; wait until it is connected by writing until it prints.
      expect(yield* eventually(Effect.gen(function*() {
        yield* guest()
        return stdout.includes("\n")
      }), 60_000)).toBe(true)
      yield* guest()
      yield* guest()
      const events = yield* allEvents(api, key)
      expect(yield* eventually(Effect.sync(() => stdout.trim().split("\n").length >= 3), 30_000)).toBe(true)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      const printed = stdout.trim().split("\n").map((line) => JSON.parse(line) as { sequence: number })
      const sequences = printed.map((e) => e.sequence)
      expect(sequences[0]).toBeGreaterThan(1)
      expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => sequences[0] + i))
      expect(printed).toEqual(events.slice(sequences[0] - 1, sequences[0] - 1 + printed.length))
    }))
})
