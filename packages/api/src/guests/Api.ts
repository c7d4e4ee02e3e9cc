import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import * as Errors from "../common/Errors.js"
import { boundedString, GuestNotFound, Loyalty, Text } from "@hotel/domain"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { created, Id, IdParam, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged } from "../common/EntityTags.js"

const optionalText = (max: number) => Schema.optionalKey(Schema.NullOr(boundedString(1, max)))

export const NewGuest = Schema.Struct({
  first_name: boundedString(1, 100),
  last_name: boundedString(1, 100),
  email: Schema.optionalKey(Schema.NullOr(
    Text.pipe(Schema.check(Schema.makeFilter((s) => /^[^\s@]+@[^\s@]+$/.test(s) && s.length <= 254, {
      message: "must be an email address"
    })))
  )),
  phone: optionalText(50),
  language: optionalText(35)
}).annotate({ identifier: "GuestCreate" })

export const Guest = Schema.Struct({
  id: Id,
  first_name: Schema.String,
  last_name: Schema.String,
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  language: Schema.NullOr(Schema.String),
  loyalty_points: Schema.Int,
  created_at: Timestamp
}).annotate({ identifier: "Guest" })

export class GuestsApi extends HttpApiGroup.make("guests")
  .annotateMerge(tag("Guests and loyalty", "Guest profiles and their loyalty points."))
  .add(
    HttpApiEndpoint.post("create", "/guests", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: NewGuest,
      success: created(Schema.Struct({ guest_id: Id }).annotate({ identifier: "GuestCreated" }))
    })
      .annotateMerge(doc("Create a guest", "Creates a guest profile; a hold names its guest by id."))
      .annotate(RequiredScope, "guests:write")
  )
  .add(
    HttpApiEndpoint.get("get", "/guests/:id", {
      disableCodecs: true,
      params: IdParam,
      success: Guest,
      error: [Errors.GuestNotFound]
    })
      .annotateMerge(doc("Get a guest", "One guest with their loyalty balance."))
      .annotate(RequiredScope, "guests:read")
      .annotateMerge(EntityTagged)
      .annotate(NotFoundAs, GuestNotFound)
  )
{}

export const RedemptionCreated = Schema.Struct({
  /** The ledger entry's id. */
  redemption_id: Id,
  guest_id: Id,
  reservation_id: Schema.NullOr(Id),
  /** The points redeemed (a positive number; the ledger entry is negative). */
  points: Schema.Int,
  /** The guest's balance after the redemption. */
  loyalty_points: Schema.Int
}).annotate({ identifier: "RedemptionCreated" })

/** `POST /guests/{id}/loyalty/redemptions`; scope `guests:write`. */
export class LoyaltyApi extends HttpApiGroup.make("loyalty")
  .annotateMerge(tag("Guests and loyalty", "Guest profiles and their loyalty points."))
  .add(
    HttpApiEndpoint.post("redeem", "/guests/:id/loyalty/redemptions", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Loyalty.Redemption,
      success: created(RedemptionCreated),
      error: [Errors.GuestNotFound, Errors.ReservationNotFound, Errors.InsufficientPoints]
    })
      .annotateMerge(doc("Redeem loyalty points", "Spends points of a guest, optionally against a reservation; fails with `insufficient_points` when the balance is too low."))
  )
  .annotate(RequiredScope, "guests:write")
  .annotate(NotFoundAs, GuestNotFound)
{}

/** The `guests` feature's endpoint groups: guests and their loyalty points. `Api.ts` adds them to `HotelApi`. */
export const GuestsGroups = HttpApi.make("hotel")
  .add(GuestsApi)
  .add(LoyaltyApi)
