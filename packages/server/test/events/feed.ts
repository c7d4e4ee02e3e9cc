import * as Effect from "effect/Effect"
import type { TestApiService } from "../utils/TestServer.js"

export interface EventWire {
  readonly id: string
  readonly type: string
  readonly sequence: number
  readonly created_at: string
  readonly data: Record<string, unknown>
}

export const feed = (api: TestApiService, query = "", key?: string) =>
  Effect.map(
    api.get(`/events${query}`, key === undefined ? {} : { key }),
    (res) => ({ res, page: res.status === 200 ? res.json<{ data: Array<EventWire>; has_more: boolean }>() : undefined })
  )

/**
 * Every event of the key's property, following `has_more`: after the event `after` when given (a test's
 * property starts with its import's `rate_plan.created` events), of the comma-separated `types` when given.
 */
export const allEvents = (api: TestApiService, key?: string, options: { readonly after?: string; readonly types?: string } = {}) =>
  Effect.gen(function*() {
    const events: Array<EventWire> = []
    const types = options.types === undefined ? "" : `&types=${options.types}`
    for (;;) {
      const last = events.length === 0 ? options.after : events[events.length - 1].id
      const after = last === undefined ? "" : `&after=${last}`
      const { page } = yield* feed(api, `?limit=500${types}${after}`, key)
      if (page === undefined) return yield* Effect.dieMessage("feed failed")
      events.push(...page.data)
      if (!page.has_more) return events
    }
  })
