import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import { MaintenanceRepository, maintenanceWindowJson } from "@hotel/persistence/platform/MaintenanceRepository"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { parseFutureTimestamp } from "./Key.js"
import { needsSubcommand, runPrinting } from "./Shared.js"

const start = Command.make(
  "start",
  { until: Flag.String("until").pipe(Flag.optional, Flag.withDescription("Expected end, ISO 8601")) },
  ({ until }) =>
    runPrinting(Effect.gen(function*() {
      const end = Option.isSome(until) ? yield* parseFutureTimestamp(until.value, "--until") : undefined
      const maintenance = yield* MaintenanceRepository
      return maintenanceWindowJson(yield* maintenance.start(end))
    }))
).pipe(Command.withDescription("Start maintenance: every API request but the health checks gets 503"))

const stop = Command.make("stop", {}, () =>
  runPrinting(Effect.flatMap(MaintenanceRepository, (m) => Effect.map(m.stop(), maintenanceWindowJson)))).pipe(
    Command.withDescription("End maintenance")
  )

const status = Command.make("status", {}, () =>
  runPrinting(Effect.flatMap(MaintenanceRepository, (m) => Effect.map(m.current(), maintenanceWindowJson)))).pipe(
    Command.withDescription("Show the maintenance window")
  )

/** `hotel maintenance start [--until TS]` / `stop` / `status`; each prints the window. */
export const maintenance = Command.make("maintenance", {}, needsSubcommand("maintenance start [--until TS] | stop | status"))
  .pipe(
    Command.withDescription("Maintenance window"),
    Command.withSubcommands([start, stop, status])
  )
