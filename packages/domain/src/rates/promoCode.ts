// Promo codes of a rate plan: request bodies and rules. A code is stored and matched in
// upper case and cannot change after creation.
import * as Schema from "effect/Schema"
import { charCount } from "../common/Schemas.js"
import { type Check, window } from "./checks.js"
import { BoolField, DateField, immutable, int, nullable, optional, Str } from "./fields.js"
import { keep, orNull } from "./merge.js"

export const normalizeCode = (code: string): string => code.toUpperCase()

/** 3 to 40 characters once in upper case (the form it is stored in: "ß" becomes "SS"), no white space. */
export const CodeField = Str.pipe(
  Schema.check(Schema.makeFilter((s) => charCount(normalizeCode(s)) >= 3 && charCount(normalizeCode(s)) <= 40, {
    message: "must be 3 to 40 characters (in upper case)"
  })),
  Schema.check(Schema.makeFilter((s) => /^\S+$/.test(s), { message: "must not contain white space" }))
)

const Cap = int(1, 1_000_000)

/** `POST /rate-plans/{id}/promo-codes`. */
export const PromoCodeCreate = Schema.Struct({
  code: CodeField,
  valid_from: nullable(DateField),
  valid_to: nullable(DateField),
  max_redemptions: nullable(Cap),
  max_per_guest: nullable(Cap)
}).annotate({ identifier: "PromoCodeCreate" })
export type PromoCodeCreate = typeof PromoCodeCreate.Type

/** `PATCH /promo-codes/{id}`: everything but the code; `null` clears a bound or a cap. */
export const PromoCodePatch = Schema.Struct({
  code: immutable(CodeField, "cannot be changed; delete the code and create a new one"),
  valid_from: nullable(DateField),
  valid_to: nullable(DateField),
  max_redemptions: nullable(Cap),
  max_per_guest: nullable(Cap),
  is_active: optional(BoolField)
}).annotate({ identifier: "PromoCodePatch" })
export type PromoCodePatch = typeof PromoCodePatch.Type

export interface PromoCodeFields {
  readonly valid_from: string | null
  readonly valid_to: string | null
  readonly max_redemptions: number | null
  readonly max_per_guest: number | null
  readonly is_active: boolean
}


export const fieldsFromCreate = (input: PromoCodeCreate): PromoCodeFields => ({
  valid_from: orNull(input.valid_from),
  valid_to: orNull(input.valid_to),
  max_redemptions: orNull(input.max_redemptions),
  max_per_guest: orNull(input.max_per_guest),
  is_active: true
})

export const fieldsFromPatch = (patch: PromoCodePatch, stored: PromoCodeFields): PromoCodeFields => ({
  valid_from: keep(patch.valid_from, stored.valid_from),
  valid_to: keep(patch.valid_to, stored.valid_to),
  max_redemptions: keep(patch.max_redemptions, stored.max_redemptions),
  max_per_guest: keep(patch.max_per_guest, stored.max_per_guest),
  is_active: keep(patch.is_active, stored.is_active)
})

/** The validity window includes both ends, so a one-day code has `valid_from` = `valid_to`. */
export const checkFields = (fields: {
  readonly valid_from?: string | null | undefined
  readonly valid_to?: string | null | undefined
}): Check<void> => window("valid_from", fields.valid_from, "valid_to", fields.valid_to)
