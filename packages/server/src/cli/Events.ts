import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as SqlClient from "effect/sql/SqlClient"
import { presentEvent } from "@hotel/http/events/EventPresenter"
import { EventFeed } from "@hotel/persistence/events/EventFeed"
import { PropertyNotFound, propertyExists } from "@hotel/persistence/platform/ApiKeyRepository"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AdminLive } from "../main.js"
import { needsSubcommand } from "./Shared.js"

/** How often `tail` asks for new events. */
const tailInterval = Duration.millis(500)

/**
 * Prints a property's events as JSON lines (the feed's shape) as they commit, until interrupted: from the
 * event after `--after`, or from the next event to commit.
 */
const tail = Command.make(
  "tail",
  {
    property: Flag.String("property").pipe(Flag.withDescription("The property's id")),
    after: Flag.String("after").pipe(Flag.optional, Flag.withDescription("Start after this event id"))
  },
  ({ after, property }) =>
    Effect.gen(function*() {
      const feed = yield* EventFeed
      // An unknown property would tail nothing forever: say so instead.
      if (!(yield* Effect.orDie(propertyExists(yield* SqlClient.SqlClient, property)))) {
        return yield* new PropertyNotFound({ message: `No property has the id ${property}`, property_id: property })
      }
      let cursor = Option.isSome(after) ? after.value : yield* feed.latest(property)
      for (;;) {
        const page = yield* feed.page(property, { after: cursor, types: undefined, limit: 500 })
        for (const row of page.rows) yield* Console.log(JSON.stringify(presentEvent(row)))
        const last = page.rows[page.rows.length - 1]
        if (last !== undefined) cursor = last.id
        if (!page.hasMore) yield* Effect.sleep(tailInterval)
      }
    }).pipe(Effect.provide(EventFeed.layer), Effect.provide(AdminLive))
).pipe(Command.withDescription("Print a property's events as JSON lines as they commit (Ctrl-C to stop)"))

/** `hotel events tail --property ID [--after EVENT_ID]`. */
export const events = Command.make("events", {}, needsSubcommand("events tail --property ID [--after EVENT_ID]")).pipe(
  Command.withDescription("Events of a property"),
  Command.withSubcommands([tail])
)
