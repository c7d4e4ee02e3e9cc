import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MainLive, PrimaryLive } from "../main.js"
import { announceReady } from "../runtime/HandedConnections.js"
import { isServingProcess } from "../runtime/ProcessMessages.js"
import { ProcessesConfig, serveProcesses } from "../runtime/Processes.js"

/**
 * `hotel serve`: migrates, seeds an empty embedded database with the demo, then serves the API on HOST:PORT,
 * in this process or, with `PROCESSES` above 1, in that many processes it starts and watches.
 */
export const serve = Command.make("serve", {}, () =>
  Effect.gen(function*() {
    const count = yield* ProcessesConfig
    if (count > 1 && !isServingProcess()) {
      return yield* Effect.scoped(serveProcesses(count)).pipe(Effect.provide(PrimaryLive))
    }
    return yield* Layer.launch(Layer.effectDiscard(announceReady).pipe(Layer.provide(MainLive)))
  })).pipe(
    Command.withDescription(
      "Run the API (PORT, default 3000; HOST, default 127.0.0.1; PROCESSES, default 1: how many processes serve it; " +
        "HOTEL_DRAIN_DELAY_MS, default 5000: after SIGTERM, how long it serves on, not ready, before closing its port)"
    )
  )
