import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { ReservationNotFound } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, CacheControl, noStore, NotFoundAs, RequiredScope } from "../Security.js"
import { IdParam } from "./Common.js"

export const CancellationQuote = Schema.Struct({
  reservation_id: Schema.String,
  /** What a cancel now would owe the guest, in minor units of `currency` (0 when nothing was paid). */
  refund_due_minor: Schema.Int,
  currency: Schema.String,
  /** The policy's refund percentage in force now. */
  refund_percent: Schema.Int,
  /** When that percentage stops applying (UTC); null when it is the last term. */
  tier_until: Schema.NullOr(Schema.String),
  /** The instant the quote is for (UTC). */
  quoted_at: Schema.String
})

/** `GET /reservations/{id}/cancellation-quote` (decisions 3.1); scope `reservations:read`. */
export class CancellationQuoteApi extends HttpApiGroup.make("cancellationQuote")
  .add(
    HttpApiEndpoint.get("get")`/reservations/${IdParam}/cancellation-quote`
      .addSuccess(CancellationQuote)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.NotCancellable)
  )
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, ReservationNotFound)
  .annotate(CacheControl, noStore)
{}
