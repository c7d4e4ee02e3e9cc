import * as Schema from "effect/Schema"
import { text } from "../rates/fields.js"

/** `POST /reservations/{id}/payments`: `amount` is a decimal string checked against the currency by the service. */
export const PaymentCreate = Schema.Struct({
  payment_reference: text(1, 255).pipe(
    Schema.check(Schema.makeFilter((s) => s.trim().length > 0, { message: "must be a non-empty string of at most 255 characters" }))
  ),
  // Its form is described here and checked by the service (`Money.parse`), which names what is wrong.
  amount: Schema.String.annotate({ message: "must be a decimal string such as \"120.00\"", examples: ["131.20"] }).pipe(
    Schema.check(Schema.makeFilter((_: string) => true, { toJsonSchema: () => ({ pattern: "^\\d+(\\.\\d+)?$" }) }))
  ),
  currency: Schema.String.annotate({ examples: ["EUR"] }).pipe(
    Schema.check(Schema.makeFilter((s) => /^[A-Za-z]{3}$/.test(s), {
      message: "must be an ISO 4217 currency code such as \"EUR\""
    }))
  )
}).annotate({ identifier: "PaymentCreate" })
export type PaymentCreate = typeof PaymentCreate.Type
