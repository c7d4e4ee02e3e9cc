import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { FolioNotFound, Folio, ReservationNotFound } from "@hotel/domain"
import { Authorization, IdempotentTransaction, RequestBody, CacheControl, noStore, NotFoundAs, RequiredScope } from "../Security.js"
import { IdParam, Created } from "../Common.js"
import { BalanceEntry } from "../booking/Api.js"

/** A folio line (decisions 3.1, 5): `amount` in the line's own currency. */
export const FolioLine = Schema.Struct({
  id: Schema.String,
  /** `room`, `tax`, `addon`, `addon_tax`, `charge`, `cancellation_fee` (charges); `payment`, `credit`; `refund`. */
  kind: Schema.String,
  description: Schema.String,
  amount: Schema.String,
  currency: Schema.String,
  /** Base-currency units per one unit of `currency`, frozen when the line was written; null when none was configured. */
  exchange_rate: Schema.NullOr(Schema.String),
  revenue_category: Schema.NullOr(Schema.String),
  service_id: Schema.NullOr(Schema.String),
  quantity: Schema.NullOr(Schema.Int),
  created_at: Schema.String
})

/** Per-currency truth and base-currency estimates (interface 2.8); the flat fields are null when a line has no rate. */
export const folioFigures = {
  balances: Schema.Array(BalanceEntry),
  balance: Schema.NullOr(Schema.String),
  total_charges: Schema.NullOr(Schema.String)
}

export const FolioView = Schema.Struct({
  id: Schema.String,
  reservation_id: Schema.String,
  /** `voided` once the reservation is cancelled (or its hold expired); the lines stay for audit. */
  status: Schema.Literal("open", "voided"),
  /** The currency of the stay. */
  currency: Schema.String,
  lines: Schema.Array(FolioLine),
  ...folioFigures
})

/** `GET /folios/{id}` (decisions 3.1); scope `reservations:read`. */
export class FoliosApi extends HttpApiGroup.make("folios")
  .add(
    HttpApiEndpoint.get("get")`/folios/${IdParam}`
      .addSuccess(FolioView)
      .addError(Errors.FolioNotFound)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, FolioNotFound)
  .annotate(CacheControl, noStore)
{}

export const ChargePosted = Schema.Struct({
  /** The id of the charge line. */
  charge_id: Schema.String,
  reservation_id: Schema.String,
  folio_id: Schema.String,
  currency: Schema.String,
  /** What credits covered of the charge, in `currency` ("0.00" when none applied). */
  credit_applied: Schema.String,
  /** The lines the charge wrote: the charge line, then one `credit` line per credit consumed. */
  lines: Schema.Array(FolioLine),
  /** The folio's figures after the charge. */
  ...folioFigures
})

/** `POST /reservations/{id}/charges` (decisions 5); scope `folios:write`. */
export class ChargesApi extends HttpApiGroup.make("charges")
  .add(
    HttpApiEndpoint.post("post")`/reservations/${IdParam}/charges`
      .setPayload(Folio.ChargePost)
      .addSuccess(ChargePosted, Created)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.ServiceNotFound)
      .addError(Errors.InvalidStatusTransition)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "folios:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}
