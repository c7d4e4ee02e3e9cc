import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import { run } from "./cli/Hotel.js"

// `hotel`: one JSON document on stdout; on failure a JSON error on stderr (printed by `run`) and exit code 1.
// The first SIGINT/SIGTERM starts a graceful stop (`runMain` interrupts the program; the server drains).
// A repeat must not kill the process half-way: a Ctrl-C reaches both `npm start` and node, and npm
// forwards its copy, so node receives the signal twice.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => {})

run(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
