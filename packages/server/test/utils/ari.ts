import type { Ari } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { clientOf } from "./client.js"
import type { RequestOptions } from "./http.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the channel ARI tests (`POST /ari`, `GET /ari`).

/** A call that must succeed (200); returns its body. Items go as sent: the body is judged by the server. */
export const postAri = (api: TestApiService, items: ReadonlyArray<Record<string, unknown>>, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.ari.write({ headers: {}, payload: { items } }))

/** Raw `POST /ari`: for deliberately malformed bodies and the exact wire. */
export const postAriRaw = (api: TestApiService, body: unknown, options?: RequestOptions) => api.post("/ari", body, options)

/** `GET /ari` through the typed client; the entries. */
export const readAri = (api: TestApiService, query: Ari.AriReadParams, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => Effect.map(client.ari.read({ query }), (answer) => answer.data))

/** The nights of one plan's calendar entry. */
export const ariNights = (api: TestApiService, ratePlanId: string, start: string, end: string, options?: RequestOptions) =>
  Effect.map(readAri(api, { start_date: start, end_date: end, rate_plan_id: ratePlanId }, options), (entries) => entries[0]?.nights ?? [])

/** A `/rates` quote of one plan over `stay` (closed or not: `include_unavailable`), `adults` 2 unless given. */
export const offer = (
  api: TestApiService,
  plan: string,
  stay: { readonly check_in: string; readonly check_out: string },
  adults = 2,
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    Effect.map(client.rates.rates({ query: { ...stay, adults, rate_plan_id: plan, include_unavailable: true } }), (answer) => answer.data[0]))
