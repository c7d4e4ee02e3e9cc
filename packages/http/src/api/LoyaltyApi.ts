import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { GuestNotFound, Loyalty } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { Created, IdParam } from "./Common.js"

export const RedemptionCreated = Schema.Struct({
  /** The ledger entry's id. */
  redemption_id: Schema.String,
  guest_id: Schema.String,
  reservation_id: Schema.NullOr(Schema.String),
  /** The points redeemed (a positive number; the ledger entry is negative). */
  points: Schema.Int,
  /** The guest's balance after the redemption. */
  loyalty_points: Schema.Int
})

/** `POST /guests/{id}/loyalty/redemptions` (decisions 5); scope `guests:write`. */
export class LoyaltyApi extends HttpApiGroup.make("loyalty")
  .add(
    HttpApiEndpoint.post("redeem")`/guests/${IdParam}/loyalty/redemptions`
      .setPayload(Loyalty.Redemption)
      .addSuccess(RedemptionCreated, Created)
      .addError(Errors.GuestNotFound)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.InsufficientPoints)
  )
  .middleware(Authorization)
  .annotate(RequiredScope, "guests:write")
  .annotate(NotFoundAs, GuestNotFound)
{}
