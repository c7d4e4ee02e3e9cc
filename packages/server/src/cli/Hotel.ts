import * as Command from "effect/cli/Command"
import * as Console from "effect/Console"
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
import packageJson from "../../package.json" with { type: "json" }
import { needsSubcommand, reportFailure, stripAnsi, withoutCliErrorText } from "./Shared.js"

/** The `hotel` admin command line. */
export const hotel = Command.make("hotel", {}, needsSubcommand("hotel <command>; see hotel --help")).pipe(
  Command.withDescription("Hotel service administration: every command prints one JSON document"),
  Command.withSubcommands([serve, migrate, property, key, maintenance, fx, demo, events])
)

// The workspaces share one version (the root's); the bundle inlines it.
const cli = Command.run(hotel, { name: "hotel", version: packageJson.version })

/** The console of the command's own output (help, version): styled on a terminal, plain text into a pipe. */
const plainUnlessTerminal = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() =>
    process.stdout.isTTY === true ? effect : Console.consoleWith((current) => {
      const plain: Console.Console = {
        ...current,
        log: (...args) => current.log(...args.map((arg) => (typeof arg === "string" ? stripAnsi(arg) : arg)))
      }
      return Effect.withConsole(effect, plain)
    })
  )

/** Runs the command line on `process.argv`-style arguments; failures are printed as JSON on stderr. */
export const run = (argv: ReadonlyArray<string>) =>
  cli(argv).pipe(withoutCliErrorText, reportFailure, plainUnlessTerminal, Effect.provide(LoggingLive))
