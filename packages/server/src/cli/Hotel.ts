import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { LoggingLive } from "../observability/Logging.js"
import { demo } from "./Demo.js"
import { events } from "./Events.js"
import { fx } from "./Fx.js"
import { key } from "./Key.js"
import { maintenance } from "./Maintenance.js"
import { migrate } from "./Migrate.js"
import { errorTextUnder, OutputLive } from "./Output.js"
import { property } from "./Property.js"
import { serve } from "./Serve.js"
import packageJson from "../../package.json" with { type: "json" }
import { needsSubcommand, reportFailure } from "./Shared.js"

/** The `hotel` admin command line. */
export const hotel = Command.make("hotel", {}, needsSubcommand("hotel <command>; see hotel --help")).pipe(
  Command.withDescription("Hotel service administration: every command prints one JSON document"),
  Command.withSubcommands([serve, migrate, property, key, maintenance, fx, demo, events])
)

// The workspaces share one version (the root's); the bundle inlines it.
const cli = Command.runWith(hotel, { version: packageJson.version })

/** Runs the command line on its arguments (`process.argv` less node and the script); failures are printed as JSON on stderr. */
export const run = (args: ReadonlyArray<string>) =>
  cli(args).pipe(Effect.provide(OutputLive), Effect.provide(LoggingLive), reportFailure(errorTextUnder(hotel)))
