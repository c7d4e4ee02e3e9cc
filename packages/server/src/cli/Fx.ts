import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import { FxRepository } from "@hotel/persistence/catalog/FxRepository"
import * as Effect from "effect/Effect"
import { needsSubcommand, runPrinting } from "./Shared.js"

const set = Command.make(
  "set",
  {
    property: Flag.String("property").pipe(Flag.withDescription("Property id")),
    currency: Argument.String("CURRENCY"),
    rate: Argument.String("RATE").pipe(Argument.withDescription("Base-currency units per one unit of CURRENCY"))
  },
  ({ currency, property, rate }) => runPrinting(Effect.flatMap(FxRepository, (fx) => fx.setRate(property, currency, rate)))
).pipe(Command.withDescription("Set a currency's rate to the base currency; prints { property_id, currency, rate_to_base }"))

/** `hotel fx set --property ID CURRENCY RATE`. */
export const fx = Command.make("fx", {}, needsSubcommand("fx set --property ID CURRENCY RATE")).pipe(
  Command.withDescription("Exchange rates"),
  Command.withSubcommands([set])
)
