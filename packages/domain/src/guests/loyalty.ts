// Loyalty redemption: `POST /guests/{id}/loyalty/redemptions` `{ points, reservation_id? }` debits
// the guest's ledger. The balance is the sum of the ledger; a redemption of more than the balance is 409
// `insufficient_points`, and a negative balance (a reversal after the points were spent) blocks any redemption.
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { InsufficientPoints } from "../errors/BusinessErrors.js"
import { IdField, int } from "../rates/fields.js"

/** The most points one redemption may take (the ledger stores 32-bit integers). */
export const maxRedemptionPoints = 1_000_000_000

export const Redemption = Schema.Struct({
  points: int(1, maxRedemptionPoints),
  reservation_id: Schema.optionalKey(Schema.NullOr(IdField))
}).annotate({ identifier: "LoyaltyRedemption" })
export type Redemption = typeof Redemption.Type

/** The balance after redeeming `points`, or 409 `insufficient_points`. */
export const redeem = (balance: number, points: number): Result.Result<number, InsufficientPoints> =>
  points <= balance
    ? Result.succeed(balance - points)
    : Result.fail(new InsufficientPoints({
      message: balance < 0
        ? `The loyalty balance is ${balance} points; nothing can be redeemed until it is positive`
        : `The loyalty balance is ${balance} points; ${points} cannot be redeemed`
    }))
