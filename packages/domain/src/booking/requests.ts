// Request bodies of the booking flow. Each field carries a message written for
// integrators; the gateway reports a decode failure as 400 `invalid_parameters` with `param` = the field's path
// as sent (`add_ons[2].quantity`). Rules that need the database or other fields (date order, stay length, the
// room type's bed configurations, the service's modifiers, the folio total) are checked by the services.
import * as Schema from "effect/Schema"
import { charCount } from "../common/Schemas.js"
import { DateField, IdField, int, list, Str, text } from "../rates/fields.js"
import { parsePaymentAmount } from "./settlement.js"

/** An optional key that also accepts `null` (same as absent). */
const optional = <A, I, R>(schema: Schema.Codec<A, I, R>) => Schema.optionalKey(Schema.NullOr(schema))

/** The most add-ons one hold may book. */
export const maxAddOns = 10

/**
 * `modifier_values`: an object of modifier key to value; keys and values are checked against the service (any
 * key is read here, so one with a NUL is reported as unknown rather than silently dropped).
 */
export const ModifierValues = Schema.Record(Schema.String, Schema.Unknown).annotate({
  message: "must be an object of modifier key to value"
})

export const HoldAddOn = Schema.Struct({
  service_id: IdField,
  modifier_values: optional(ModifierValues),
  quantity: optional(int(1, 99))
}).annotate({ message: "must be an object with service_id, modifier_values and quantity" })
export type HoldAddOn = typeof HoldAddOn.Type

/** The fields of one room of a stay: a hold's own, and each of a booking's `rooms` (./bookingRequests.ts). */
export const roomFields = {
  room_type_id: IdField,
  rate_plan_id: IdField,
  adults: int(1, 20),
  children: optional(int(0, 20)),
  /** When present, the authoritative child count. */
  child_ages: optional(list(int(0, 120), 20)),
  bed_config: optional(text(1, 50)),
  add_ons: optional(list(HoldAddOn, maxAddOns)),
  promo_code: optional(text(0, 40)),
  special_notes: optional(text(0, 2000)),
  /** A pickup: the block whose units the hold takes (its room type and plan must be the block's). */
  block_id: optional(IdField)
}

/** `POST /holds`. */
export const HoldCreate = Schema.Struct({
  room_type_id: roomFields.room_type_id,
  rate_plan_id: roomFields.rate_plan_id,
  check_in: DateField,
  check_out: DateField,
  guest_id: IdField,
  adults: roomFields.adults,
  children: roomFields.children,
  child_ages: roomFields.child_ages,
  bed_config: roomFields.bed_config,
  add_ons: roomFields.add_ons,
  promo_code: roomFields.promo_code,
  special_notes: roomFields.special_notes,
  block_id: roomFields.block_id
}).annotate({ identifier: "HoldCreate" })
export type HoldCreate = typeof HoldCreate.Type

/** A JSON number or a decimal string. */
export const PaymentAmountField = Schema.Union([Schema.Finite, Schema.String]).annotate({
  message: "must be a decimal amount: a JSON number or a decimal string such as \"1310.40\""
}).pipe(
  Schema.check(Schema.makeFilter((value) => parsePaymentAmount(value) !== undefined, {
    message: "must be a decimal amount of 0 or more: a JSON number or a decimal string such as \"1310.40\""
  }))
)

/** `POST /holds/{id}/confirm`. */
export const HoldConfirm = Schema.Struct({
  payment_reference: Str.pipe(
    Schema.check(Schema.makeFilter((s) => s.trim().length > 0 && charCount(s) <= 255, {
      message: "must be a non-empty string of at most 255 characters"
    }))
  ),
  /** Three letters, compared case-insensitively with the reservation currency: another one is `currency_mismatch`. */
  payment_currency: optional(
    Str.pipe(Schema.check(Schema.makeFilter((s) => /^[A-Za-z]{3}$/.test(s), { message: "must be an ISO 4217 currency code such as \"EUR\"" })))
  ),
  payment_amount: optional(PaymentAmountField)
}).annotate({ identifier: "HoldConfirm" })
export type HoldConfirm = typeof HoldConfirm.Type

/** `POST /reservations/{id}/cancel`; an empty body is allowed. */
export const ReservationCancel = Schema.Struct({
  reason: optional(text(1, 500))
}).annotate({ identifier: "ReservationCancel" })
export type ReservationCancel = typeof ReservationCancel.Type
