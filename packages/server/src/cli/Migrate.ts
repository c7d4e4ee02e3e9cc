import * as Command from "effect/cli/Command"
import { runMigrations } from "@hotel/persistence/database/Migrations"
import * as Effect from "effect/Effect"
import { DatabaseLive } from "../main.js"
import { printJson } from "./Shared.js"

/** `hotel migrate`: applies pending migrations; prints `{ applied: ["0001_initial", ...] }`. */
export const migrate = Command.make("migrate", {}, () =>
  runMigrations.pipe(
    Effect.map((applied) => ({ applied: applied.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`) })),
    Effect.flatMap(printJson),
    Effect.provide(DatabaseLive)
  )).pipe(Command.withDescription("Apply pending database migrations"))
