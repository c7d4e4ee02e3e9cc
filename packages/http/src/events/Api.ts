import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Text } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { IntParam } from "../QueryParams.js"
import { Authorization, CacheControl, noStore, RequestBody, RequiredScope } from "../Security.js"
import { EventPage, TypesParam } from "./schemas.js"

export const EventFeedParams = Schema.Struct({
  after: Schema.optional(Text),
  types: Schema.optional(TypesParam),
  limit: Schema.optional(IntParam(1, 500))
})

/** The event feed (decisions 8): this property's events in `sequence` order. */
export class EventsApi extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("list", "/events")
      .setUrlParams(EventFeedParams)
      .addSuccess(EventPage)
      .annotate(RequiredScope, "events:read")
      .annotate(CacheControl, noStore)
  )
  .middleware(RequestBody)
  .middleware(Authorization)
{}
