import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { Text } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { IntParam } from "../common/QueryParams.js"
import { CacheControl, noStore, RequiredScope } from "../common/Security.js"
import { EventPage, TypesParam } from "./schemas.js"
import { doc, tag } from "../openapi/Docs.js"

export const EventFeedParams = Schema.Struct({
  after: Schema.optionalKey(Text),
  types: Schema.optionalKey(TypesParam),
  limit: Schema.optionalKey(IntParam(1, 500))
})

/** The event feed: this property's events in `sequence` order. */
export class EventsApi extends HttpApiGroup.make("events")
  .annotateMerge(tag("Events and webhooks", "Every change to the property as an event, read from the feed or pushed, signed, to your webhook endpoints."))
  .add(
    HttpApiEndpoint.get("list", "/events", {
      disableCodecs: true,
      query: EventFeedParams.fields,
      success: EventPage
    })
      .annotateMerge(doc("Read the event feed", "The property's events in `sequence` order after the `after` cursor; poll it, or subscribe a webhook endpoint."))
      .annotate(RequiredScope, "events:read")
      .annotate(CacheControl, noStore)
  )
{}

/** The `events` feature's endpoint groups: the event feed. `Api.ts` adds them to `HotelApi`. */
export const EventsGroups = HttpApi.make("hotel")
  .add(EventsApi)
