import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import type { Scope } from "@hotel/domain"
import { allScopes, isCalendarDate } from "@hotel/domain"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CommandFailed, needsSubcommand, runPrinting } from "./Shared.js"

/** `--scopes a,b`; `""` is no scope at all (a key that can only call `/me`). */
export const parseScopes = (text: string): Effect.Effect<ReadonlyArray<Scope>, CommandFailed> => {
  const names = text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  const known = (name: string): name is Scope => (allScopes as ReadonlyArray<string>).includes(name)
  const unknown = names.filter((name) => !known(name))
  return unknown.length > 0
    ? Effect.fail(
      new CommandFailed({
        message: `unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.map((s) => `"${s}"`).join(", ")} (known: ${
          allScopes.join(", ")
        })`,
        param: "--scopes"
      })
    )
    : Effect.succeed([...new Set(names.filter(known))])
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** An ISO 8601 timestamp in the future (a date alone is midnight UTC). */
export const parseFutureTimestamp = (text: string, param: string): Effect.Effect<Date, CommandFailed> =>
  Effect.gen(function*() {
    const date = new Date(text)
    // `new Date` rolls 2030-02-30 over into March: the date part must be a real calendar date itself.
    if (!ISO_TIMESTAMP.test(text) || Number.isNaN(date.getTime()) || !isCalendarDate(text.slice(0, 10))) {
      return yield* new CommandFailed({ message: `${param}: must be an ISO 8601 timestamp such as 2027-01-01T00:00:00Z`, param })
    }
    if (date.getTime() <= (yield* Clock.currentTimeMillis)) {
      return yield* new CommandFailed({ message: `${param}: must be in the future`, param })
    }
    return date
  })

/** The highest `--rate-limit` (the column is a Postgres integer; a million a minute is beyond any one server). */
export const maxRateLimit = 1_000_000

/** `--rate-limit N`: a whole number of requests per minute, 1 to `maxRateLimit`. */
export const parseRateLimit = (value: number): Effect.Effect<number, CommandFailed> =>
  Number.isInteger(value) && value >= 1 && value <= maxRateLimit
    ? Effect.succeed(value)
    : Effect.fail(
      new CommandFailed({ message: `--rate-limit: must be a whole number from 1 to ${maxRateLimit}`, param: "--rate-limit" })
    )

const create = Command.make(
  "create",
  {
    property: Flag.String("property").pipe(Flag.withDescription("Property id")),
    scopes: Flag.String("scopes").pipe(Flag.withDescription(`Comma-separated: ${allScopes.join(", ")}; "" for none`)),
    context: Flag.Literals("context", ["back_office", "booking_engine", "channel"]).pipe(
      Flag.withDefault("back_office" as const),
      Flag.withDescription("Sales context")
    ),
    label: Flag.String("label").pipe(Flag.optional),
    expiresAt: Flag.String("expires-at").pipe(Flag.optional, Flag.withDescription("ISO 8601 timestamp")),
    rateLimit: Flag.Int("rate-limit").pipe(
      Flag.optional,
      Flag.withDescription(`Requests per minute for this key alone (1 to ${maxRateLimit}); default 600`)
    ),
    maxLiveHolds: Flag.Int("max-live-holds").pipe(
      Flag.optional,
      Flag.withDescription("The most live holds this key may have at once (1 or more)")
    )
  },
  (options) =>
    runPrinting(Effect.gen(function*() {
      const scopes = yield* parseScopes(options.scopes)
      if (Option.isSome(options.label) && options.label.value.length > 200) {
        return yield* new CommandFailed({ message: "--label: must be at most 200 characters", param: "--label" })
      }
      const expiresAt = Option.isSome(options.expiresAt)
        ? yield* parseFutureTimestamp(options.expiresAt.value, "--expires-at")
        : null
      const rateLimit = Option.isSome(options.rateLimit) ? yield* parseRateLimit(options.rateLimit.value) : null
      const maxLiveHolds = Option.getOrNull(options.maxLiveHolds)
      if (maxLiveHolds !== null && (maxLiveHolds < 1 || maxLiveHolds > 100_000)) {
        return yield* new CommandFailed({ message: "--max-live-holds: must be a whole number from 1 to 100000", param: "--max-live-holds" })
      }
      const keys = yield* ApiKeyRepository
      return yield* keys.create({
        propertyId: options.property,
        scopes,
        context: options.context,
        label: Option.getOrNull(options.label),
        expiresAt,
        rateLimit,
        maxLiveHolds
      })
    }))
).pipe(Command.withDescription("Create an API key; prints { api_key_id, key } (the key is shown only once)"))

const revoke = Command.make("revoke", { id: Argument.String("ID") }, ({ id }) =>
  runPrinting(Effect.flatMap(ApiKeyRepository, (keys) => keys.revoke(id)))).pipe(
    Command.withDescription("Revoke an API key; prints { api_key_id, revoked: true }")
  )

/** `hotel key create ...` / `hotel key revoke ID`. */
export const key = Command.make("key", {}, needsSubcommand("key create | key revoke ID")).pipe(
  Command.withDescription("API keys"),
  Command.withSubcommands([create, revoke])
)
