import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { boundedString, Changes, IsoDate, ReservationNotFound, Uuid } from "@hotel/domain"
import * as Errors from "../common/Errors.js"
import { CacheControl, NotFoundAs, noStore, RequiredScope } from "../common/Security.js"
import { created, CurrencyCode, DateOnly, Id, IdParam, Money } from "../common/Common.js"
import { IfMatchHeaders } from "../common/EntityTags.js"
import { IncludeParam, IntListParam, IntParam } from "../common/QueryParams.js"
import { doc, tag } from "../openapi/Docs.js"
import { BalanceEntry, Reservation } from "../booking/Api.js"
import { OfferReason, TraceEntry } from "../quotes/Api.js"

/** The OpenAPI tag of changes, and of the further payments a change leaves owing (`folios/Api.ts`). */
export const changesTag = tag(
  "Changing a reservation",
  "Change a hold or a booked stay in place (dates, room type, plan, party, promo code, notes): quote the change, make it, and record what it leaves owing."
)

/** The values of a change as query parameters; each one left out keeps the reservation's value. */
export const ChangeQuoteParams = Schema.Struct({
  check_in: Schema.optionalKey(IsoDate),
  check_out: Schema.optionalKey(IsoDate),
  room_type_id: Schema.optionalKey(Uuid),
  rate_plan_id: Schema.optionalKey(Uuid),
  adults: Schema.optionalKey(IntParam(1, 20)),
  children: Schema.optionalKey(IntParam(0, 20)),
  child_ages: Schema.optionalKey(IntListParam(20, "ages", 120)),
  promo_code: Schema.optionalKey(boundedString(0, 40)),
  /** `trace` adds each night's `trace`, as on `GET /rates`. */
  include: Schema.optionalKey(IncludeParam)
})

/** A night's trace in a change quote: the steps of `/rates` for a night priced now, one `kept` entry otherwise. */
export const ChangeTraceEntry = Schema.Union([TraceEntry,
  Schema.Struct({ step: Schema.Literal("kept"), amount: Money, detail: Schema.String })])

export const ChangeQuoteView = Schema.Struct({
  reservation_id: Id,
  bookable: Schema.Boolean,
  reasons: Schema.Array(OfferReason),
  currency: CurrencyCode,
  previous_total: Money,
  total: Money,
  /** `total` − `previous_total`, signed. */
  difference: Money,
  nights: Schema.Array(Schema.Struct({ date: DateOnly, amount: Money, trace: Schema.optionalKey(Schema.Array(ChangeTraceEntry)), kept: Schema.Boolean })),
  /** The priced lines of the new stay, as the change appends them after the reversals. */
  lines: Schema.Array(Schema.Struct({ kind: Schema.String, description: Schema.String, amount: Money })),
  amount_due: Money,
  refund_due_minor: Schema.Int
}).annotate({ identifier: "ChangeQuote" })

/** `PATCH /reservations/{id}`; scope `reservations:write`. */
export class ReservationChangesApi extends HttpApiGroup.make("reservationChanges")
  .annotateMerge(changesTag)
  .add(
    HttpApiEndpoint.patch("change", "/reservations/:id", {
      disableCodecs: true,
      params: IdParam,
      payload: Changes.ReservationChange,
      headers: IfMatchHeaders,
      success: Reservation,
      error: [
        Errors.ReservationNotFound,
        Errors.HoldExpired,
        Errors.NotModifiable,
        Errors.PreconditionFailed,
        Errors.CurrencyMismatch,
        Errors.RoomTypeNotFound,
        Errors.RatePlanNotFound,
        Errors.ServiceNotFound,
        Errors.PartyTooLarge,
        Errors.NoAvailability
      ]
    })
      .annotateMerge(doc("Change a reservation", "Changes a live hold or a confirmed stay in place (a checked-in stay: only `check_out` and `special_notes`). Nights that keep their date, room type, plan and party keep their booked price; the folio gets reversal lines for the previous stay, then the new stay's lines. Answers the reservation as `GET /reservations/{id}` then returns it."))
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

/** `GET /reservations/{id}/change-quote`; scope `reservations:read`. */
export class ChangeQuoteApi extends HttpApiGroup.make("changeQuote")
  .annotateMerge(changesTag)
  .add(
    HttpApiEndpoint.get("get", "/reservations/:id/change-quote", {
      disableCodecs: true,
      params: IdParam,
      query: ChangeQuoteParams.fields,
      success: ChangeQuoteView,
      error: [
        Errors.ReservationNotFound,
        Errors.HoldExpired,
        Errors.NotModifiable,
        Errors.CurrencyMismatch,
        Errors.RoomTypeNotFound,
        Errors.RatePlanNotFound,
        Errors.ServiceNotFound
      ]
    })
      .annotateMerge(doc("Quote a change", "Exactly what `PATCH /reservations/{id}` with the same values would do now, changing nothing: the new price night by night, the new lines, the difference, and what would be owed or refunded."))
  )
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, ReservationNotFound)
  .annotate(CacheControl, noStore)
{}

/** The `changes` feature's endpoint groups. `Api.ts` adds them to `HotelApi`. */
export const ChangesGroups = HttpApi.make("hotel")
  .add(ReservationChangesApi)
  .add(ChangeQuoteApi)
