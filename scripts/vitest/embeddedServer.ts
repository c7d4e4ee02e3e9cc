import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { describeEmbeddedFailure, EmbeddedPostgres, EmbeddedPostgresError } from "@hotel/persistence/database/EmbeddedPostgres"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "../../packages/persistence/test/utils/freePort.js"

// A throw-away PostgreSQL for one test run, in its own process so that it stops (and its data goes) even
// when vitest dies: prints `{ "url": ... }` once ready; stops and removes its data when its stdin closes.
// When it cannot start it prints one paragraph (what failed, why, the ways out) and exits with 1.

const stdinClosed = Effect.callback<void>((resume) => {
  process.stdin.once("end", () => resume(Effect.void))
  process.stdin.resume()
})

const program = Effect.gen(function*() {
  const parent = yield* Effect.acquireRelease(
    Effect.try({
      try: () => fs.mkdtempSync(path.join(os.tmpdir(), "hotel-test-")),
      catch: (error) => new EmbeddedPostgresError({ step: "making a temporary directory", reason: String(error) })
    }),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )
  const port = yield* freePort()
  const server = yield* EmbeddedPostgres.acquire({
    dataDir: parent,
    port,
    database: "postgres",
    temporary: true,
    settings: { max_connections: "300", fsync: "off", synchronous_commit: "off", full_page_writes: "off" }
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  yield* stdinClosed
}).pipe(
  Effect.scoped,
  Effect.tapError((error) => Effect.sync(() => process.stderr.write(`${describeEmbeddedFailure(error)}\n`)))
)

NodeRuntime.runMain(program, { disableErrorReporting: true })
