import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { boundedString, GuestNotFound, Loyalty, Text } from "@hotel/domain"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { Created, Id, IdParam, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged } from "../common/EntityTags.js"

const optionalText = (max: number) => Schema.optional(Schema.NullOr(boundedString(1, max)))

export const NewGuest = Schema.Struct({
  first_name: boundedString(1, 100),
  last_name: boundedString(1, 100),
  email: Schema.optional(Schema.NullOr(
    Text.pipe(Schema.filter((s) => /^[^\s@]+@[^\s@]+$/.test(s) && s.length <= 254, {
      message: () => "must be an email address"
    }))
  )),
  phone: optionalText(50),
  language: optionalText(35)
})

export const Guest = Schema.Struct({
  id: Id,
  first_name: Schema.String,
  last_name: Schema.String,
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  language: Schema.NullOr(Schema.String),
  loyalty_points: Schema.Int,
  created_at: Timestamp
})

export class GuestsApi extends HttpApiGroup.make("guests")
  .annotateContext(tag("Guests and loyalty", "Guest profiles and their loyalty points."))
  .add(
    HttpApiEndpoint.post("create", "/guests")
      .annotateContext(doc("Create a guest", "Creates a guest profile; a hold names its guest by id."))
      .setPayload(NewGuest)
      .addSuccess(Schema.Struct({ guest_id: Id }), { status: 201 })
      .annotate(RequiredScope, "guests:write")
  )
  .add(
    HttpApiEndpoint.get("get")`/guests/${IdParam}`
      .annotateContext(doc("Get a guest", "One guest with their loyalty balance."))
      .addSuccess(Guest)
      .addError(Errors.GuestNotFound)
      .annotate(RequiredScope, "guests:read")
      .annotateContext(EntityTagged)
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
})

/** `POST /guests/{id}/loyalty/redemptions`; scope `guests:write`. */
export class LoyaltyApi extends HttpApiGroup.make("loyalty")
  .annotateContext(tag("Guests and loyalty", "Guest profiles and their loyalty points."))
  .add(
    HttpApiEndpoint.post("redeem")`/guests/${IdParam}/loyalty/redemptions`
      .annotateContext(doc("Redeem loyalty points", "Spends points of a guest, optionally against a reservation; fails with `insufficient_points` when the balance is too low."))
      .setPayload(Loyalty.Redemption)
      .addSuccess(RedemptionCreated, Created)
      .addError(Errors.GuestNotFound)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.InsufficientPoints)
  )
  .annotate(RequiredScope, "guests:write")
  .annotate(NotFoundAs, GuestNotFound)
{}

/** The `guests` feature's endpoint groups: guests and their loyalty points. `Api.ts` adds them to `HotelApi`. */
export const GuestsGroups = HttpApi.make("hotel")
  .add(GuestsApi)
  .add(LoyaltyApi)
