import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import { run } from "./cli/Hotel.js"

// `hotel`: one JSON document on stdout; on failure a JSON error on stderr (printed by `run`) and exit code 1.
// The first SIGINT/SIGTERM starts a graceful stop (`runMain` interrupts the program; the server drains).
// A repeat must not kill the process half-way: a Ctrl-C reaches both `npm start` and node, and npm
// forwards its copy, so node receives the signal twice.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => {})

/** A stop asked for by a signal, once drained, is a clean exit (0), not the shell's 130 for an interrupted program. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

run(process.argv.slice(2)).pipe(
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, teardown })
)
