import { describe, expect, it } from "@effect/vitest"
import { Booking, ReservationNotFound } from "@hotel/domain"
import { HttpApiSchemaError } from "effect/http-api/HttpApiError"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { IdParam } from "@hotel/api/common/Common"
import { ReservationListParams } from "@hotel/api/booking/Api"
import { NewGuest } from "@hotel/api/guests/Api"
import { fromSchemaError } from "../../src/platform/DecodeErrors.js"

// How a request the framework cannot decode is answered: decoded with the contract's own schemas, its first
// failure becomes the error the client reads (the wire itself is pinned by the whole-API tests).

const failureOf = (
  kind: HttpApiSchemaError["kind"],
  schema: Schema.ConstraintDecoder<unknown>,
  input: unknown,
  request: { readonly repeated?: ReadonlyArray<string>; readonly notFound?: boolean } = {}
) => {
  const exit = Schema.decodeUnknownExit(schema)(input)
  if (Exit.isSuccess(exit)) return "decoded"
  const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") return "no failure"
  const answer = fromSchemaError(new HttpApiSchemaError({ kind, cause: error.error }), {
    notFound: request.notFound === true ? Option.some(ReservationNotFound) : Option.none(),
    repeatedInQuery: (name) => request.repeated?.includes(name) ?? false
  })
  return `${answer._tag} ${"param" in answer ? answer.param ?? "-" : "-"}: ${answer.message}`
}

const uuid = "00000000-0000-4000-8000-000000000000"
const hold = { room_type_id: uuid, rate_plan_id: uuid, check_in: "2031-06-01", check_out: "2031-06-03", guest_id: uuid, adults: 2 }

describe("a request the framework cannot decode", () => {
  it.each([
    [{ last_name: "Lovelace" }, "InvalidParameters first_name: first_name is required"],
    [{ first_name: 12, last_name: "L" }, "InvalidParameters first_name: first_name must be a string"],
    [{ first_name: "A", last_name: "L", email: "x" }, "InvalidParameters email: email must be an email address"],
    [[1, 2], "InvalidParameters -: The request body must be a JSON object"]
  ])("a body %j: %s", (body, expected) => {
    expect(failureOf("Payload", NewGuest, body)).toBe(expected)
  })

  it.each([
    [{ ...hold, room_type_id: "x" }, "InvalidParameters room_type_id: room_type_id must be a UUID"],
    [{ ...hold, adults: 0 }, "InvalidParameters adults: adults must be a whole number from 1 to 20"],
    [{ ...hold, adults: "2" }, "InvalidParameters adults: adults must be a whole number"],
    [{ ...hold, children: "x" }, "InvalidParameters children: children must be a whole number"],
    [{ ...hold, add_ons: [{ service_id: uuid, quantity: 0 }] }, "InvalidParameters add_ons[0].quantity: add_ons[0].quantity must be a whole number from 1 to 99"]
  ])("a hold %j: %s", (body, expected) => {
    expect(failureOf("Payload", Booking.HoldCreate, body)).toBe(expected)
  })

  it("names a nullable field by what its value must be, not by the union it is", () => {
    expect(failureOf("Payload", Booking.HoldConfirm, { payment_reference: "p", payment_amount: true })).toBe(
      "InvalidParameters payment_amount: payment_amount must be a decimal amount: a JSON number or a decimal string such as \"1310.40\""
    )
    expect(failureOf("Payload", Booking.HoldConfirm, { payment_reference: "p", payment_currency: 12 }))
      .toBe("InvalidParameters payment_currency: payment_currency must be a string")
  })

  it("says a query parameter sent twice must be given once, where text was expected", () => {
    const query = Schema.Struct(ReservationListParams.fields)
    expect(failureOf("Query", query, { limit: ["5", "6"] }, { repeated: ["limit"] }))
      .toBe("InvalidParameters limit: limit must be given only once")
    expect(failureOf("Query", query, { limit: "abc" }))
      .toBe("InvalidParameters limit: limit must be a whole number from 1 to 100")
    expect(failureOf("Query", query, { status: "bogus" })).toBe("InvalidParameters status: status is invalid")
  })

  it("answers a path id that cannot be an id with the resource's 404, else names it", () => {
    const params = Schema.Struct(IdParam)
    expect(failureOf("Params", params, { id: "x" }, { notFound: true })).toBe("ReservationNotFound -: No such resource")
    expect(failureOf("Params", params, { id: "x" })).toBe("InvalidParameters id: id must be a UUID")
  })
})
