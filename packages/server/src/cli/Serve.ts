import * as Command from "@effect/cli/Command"
import * as Layer from "effect/Layer"
import { MainLive } from "../main.js"

/** `hotel serve`: migrates, seeds an empty embedded database with the demo, then serves the API on HOST:PORT. */
export const serve = Command.make("serve", {}, () => Layer.launch(MainLive)).pipe(
  Command.withDescription("Run the API (PORT, default 3000; HOST, default 127.0.0.1)")
)
