import * as HttpApi from "effect/http-api/HttpApi"
import * as OpenApi from "effect/http-api/OpenApi"
import { AriGroups } from "./ari/Api.js"
import { BlocksGroups } from "./blocks/Api.js"
import { InventoryGroups } from "./inventory/Api.js"
import { BookingGroups } from "./booking/Api.js"
import { CatalogGroups } from "./catalog/Api.js"
import { ChangesGroups } from "./changes/Api.js"
import { withRequestPipeline } from "./common/Pipeline.js"
import { EventsGroups } from "./events/Api.js"
import { FoliosGroups } from "./folios/Api.js"
import { GuestsGroups } from "./guests/Api.js"
import { PlatformGroups } from "./platform/Api.js"
import { QuotesGroups } from "./quotes/Api.js"
import { RatesGroups } from "./rates/Api.js"
import { StaysGroups } from "./stays/Api.js"
import { WebhooksGroups } from "./webhooks/Api.js"
import { describeDocument } from "./openapi/Document.js"

/**
 * The endpoints with their own errors; the description reads what each operation can answer from it. A feature
 * is one line here (its group list) and one in `packages/server/src/main.ts` (its handlers).
 */
export const Endpoints = HttpApi.make("hotel")
  .addHttpApi(PlatformGroups)
  .addHttpApi(withRequestPipeline(
    HttpApi.make("hotel")
      .addHttpApi(CatalogGroups)
      .addHttpApi(RatesGroups)
      .addHttpApi(QuotesGroups)
      .addHttpApi(GuestsGroups)
      .addHttpApi(BookingGroups)
      .addHttpApi(ChangesGroups)
      .addHttpApi(FoliosGroups)
      .addHttpApi(StaysGroups)
      .addHttpApi(EventsGroups)
      .addHttpApi(WebhooksGroups)
      .addHttpApi(BlocksGroups)
      .addHttpApi(InventoryGroups)
      .addHttpApi(AriGroups)
  ))

/**
 * The contract. Clients import this (and nothing of the server) to derive typed clients. The errors any
 * endpoint may answer with are declared once, by `ApiErrors` (`common/Security.ts`); the description lists
 * under each operation only those it can meet.
 */
export class HotelApi extends Endpoints.annotateMerge(OpenApi.annotations({
  title: "Hotel rate management and reservations",
  version: "1.0.0",
  description: "Rates, availability, holds, reservations, stays and folios of one hotel property. " +
    "Authenticate with `Authorization: Bearer <key>`; every error is `{ \"error\": { type, code, message, param, " +
    "request_id } }`. The guide is `docs/api.md` in the repository.",
  servers: [{ url: "http://127.0.0.1:3000", description: "A local server (`npm start`)" }],
  transform: describeDocument(Endpoints)
})) {}
