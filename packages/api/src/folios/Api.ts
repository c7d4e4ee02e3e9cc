import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import * as Errors from "../common/Errors.js"
import { FolioNotFound, Folio, ReservationNotFound } from "@hotel/domain"
import { CacheControl, noStore, NotFoundAs, RequiredScope } from "../common/Security.js"
import { created, CurrencyCode, Decimal, Id, IdParam, Money, Timestamp } from "../common/Common.js"
import { BalanceEntry } from "../booking/Api.js"
import { doc, tag } from "../openapi/Docs.js"
import { changesTag } from "../changes/Api.js"
import { EntityTagged } from "../common/EntityTags.js"

/** A folio line: `amount` in the line's own currency. */
export const FolioLine = Schema.Struct({
  id: Id,
  /** `room`, `tax`, `addon`, `addon_tax`, `charge`, `cancellation_fee` (charges); `payment`, `credit`; `refund`. */
  kind: Schema.String,
  description: Schema.String,
  amount: Money,
  currency: CurrencyCode,
  /** Base-currency units per one unit of `currency`, frozen when the line was written; null when none was configured. */
  exchange_rate: Schema.NullOr(Decimal),
  revenue_category: Schema.NullOr(Schema.String),
  service_id: Schema.NullOr(Id),
  quantity: Schema.NullOr(Schema.Int),
  created_at: Timestamp
})

/** Per-currency truth and base-currency estimates; the flat fields are null when a line has no rate. */
export const folioFigures = {
  balances: Schema.Array(BalanceEntry),
  balance: Schema.NullOr(Money),
  total_charges: Schema.NullOr(Money)
}

export const FolioView = Schema.Struct({
  id: Id,
  reservation_id: Id,
  /** `voided` once the reservation is cancelled (or its hold expired); the lines stay for audit. */
  status: Schema.Literals(["open", "voided"]),
  /** The currency of the stay. */
  currency: CurrencyCode,
  lines: Schema.Array(FolioLine),
  ...folioFigures
}).annotate({ identifier: "Folio" })

/** `GET /folios/{id}`; scope `reservations:read`. */
export class FoliosApi extends HttpApiGroup.make("folios")
  .annotateMerge(tag("Folios and charges", "Each reservation's account: charge lines, payments and balances per currency."))
  .add(
    HttpApiEndpoint.get("get", "/folios/:id", {
      disableCodecs: true,
      params: IdParam,
      success: FolioView,
      error: [Errors.FolioNotFound]
    })
      .annotateMerge(doc("Get a folio", "The folio's lines and its balance per currency, with an estimate in the base currency."))
      .annotateMerge(EntityTagged)
  )
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, FolioNotFound)
  .annotate(CacheControl, noStore)
{}

export const ChargePosted = Schema.Struct({
  /** The id of the charge line. */
  charge_id: Id,
  reservation_id: Id,
  folio_id: Id,
  currency: CurrencyCode,
  /** What credits covered of the charge, in `currency` ("0.00" when none applied). */
  credit_applied: Money,
  /** The lines the charge wrote: the charge line, then one `credit` line per credit consumed. */
  lines: Schema.Array(FolioLine),
  /** The folio's figures after the charge. */
  ...folioFigures
}).annotate({ identifier: "ChargePosted" })

/** `POST /reservations/{id}/charges`; scope `folios:write`. */
export class ChargesApi extends HttpApiGroup.make("charges")
  .annotateMerge(tag("Folios and charges", "Each reservation's account."))
  .add(
    HttpApiEndpoint.post("post", "/reservations/:id/charges", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Folio.ChargePost,
      success: created(ChargePosted),
      error: [Errors.ReservationNotFound, Errors.ServiceNotFound, Errors.InvalidStatusTransition]
    })
      .annotateMerge(doc("Post a charge", "Adds a service charge to a reservation's folio; credits from the rate plan's inclusions apply first."))
  )
  .annotate(RequiredScope, "folios:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

export const PaymentRecorded = Schema.Struct({
  reservation_id: Id,
  payment_reference: Schema.String,
  amount: Money,
  currency: CurrencyCode,
  folio_balance: Schema.NullOr(Money),
  balances: Schema.Array(BalanceEntry)
}).annotate({ identifier: "PaymentRecorded" })

/** `POST /reservations/{id}/payments`; scope `reservations:write`. */
export class PaymentsApi extends HttpApiGroup.make("payments")
  .annotateMerge(changesTag)
  .add(
    HttpApiEndpoint.post("create", "/reservations/:id/payments", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Folio.PaymentCreate,
      success: created(PaymentRecorded),
      error: [
        Errors.ReservationNotFound,
        Errors.CurrencyMismatch,
        Errors.InvalidStatusTransition,
        Errors.PaymentReferenceReused
      ]
    })
      .annotateMerge(doc("Record a payment", "Records a further payment on a confirmed or checked-in reservation, such as the `amount_due` a change left. A `payment_reference` is recorded once in the property."))
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

/** The `folios` feature's endpoint groups: folios, their charges and further payments. `Api.ts` adds them to `HotelApi`. */
export const FoliosGroups = HttpApi.make("hotel")
  .add(FoliosApi)
  .add(ChargesApi)
  .add(PaymentsApi)
