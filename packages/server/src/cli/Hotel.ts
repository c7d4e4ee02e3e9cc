import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import { LoggingLive } from "../observability/Logging.js"
import { demo } from "./Demo.js"
import { events } from "./Events.js"
import { fx } from "./Fx.js"
import { key } from "./Key.js"
import { maintenance } from "./Maintenance.js"
import { migrate } from "./Migrate.js"
import { property } from "./Property.js"
import { serve } from "./Serve.js"
import { needsSubcommand, reportFailure, withoutCliErrorText } from "./Shared.js"

/** The `hotel` admin command line (decisions 7). */
export const hotel = Command.make("hotel", {}, needsSubcommand("hotel <command>; see hotel --help")).pipe(
  Command.withDescription("Hotel service administration: every command prints one JSON document"),
  Command.withSubcommands([serve, migrate, property, key, maintenance, fx, demo, events])
)

const cli = Command.run(hotel, { name: "hotel", version: "0.0.0" })

/** Runs the command line on `process.argv`-style arguments; failures are printed as JSON on stderr. */
export const run = (argv: ReadonlyArray<string>) =>
  cli(argv).pipe(withoutCliErrorText, Effect.provide(LoggingLive), reportFailure)
