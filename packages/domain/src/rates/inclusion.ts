// Inclusions and credits of a rate plan: the whole-list replace body and its rules.
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { type Check, fail, money } from "./checks.js"
import {
  CurrencyField,
  DecimalField,
  Frequency,
  IdField,
  InclusionKind,
  int,
  list,
  nullable,
  optional,
  RevenueCategory,
  text
} from "./fields.js"

export const maxInclusions = 100

export const InclusionInput = Schema.Struct({
  label: text(1, 200),
  allocated_amount: DecimalField,
  frequency: Frequency,
  inclusion_kind: optional(InclusionKind),
  revenue_category: RevenueCategory,
  service_item_id: nullable(IdField),
  currency: optional(CurrencyField),
  included_quantity: optional(int(1, 1000))
})
export type InclusionInput = typeof InclusionInput.Type

/** `POST /rate-plans/{id}/inclusions`: the plan's whole new set, in order. */
export const InclusionsReplace = Schema.Struct({
  inclusions: list(InclusionInput, maxInclusions)
}).annotate({ identifier: "InclusionsReplace" })
export type InclusionsReplace = typeof InclusionsReplace.Type

/** An inclusion as stored (money as decimal text, currency defaulted). */
export interface InclusionFields {
  readonly label: string
  readonly allocated_amount: string
  readonly frequency: "perStay" | "perNight" | "perGuest" | "perGuestPerNight"
  readonly inclusion_kind: "perk" | "credit"
  readonly revenue_category: "room" | "fnb" | "spa" | "excursions" | "activities" | "other"
  readonly service_item_id: string | null
  readonly currency: string
  readonly included_quantity: number
}

/**
 * Defaults and rules of each entry, reported by index (`inclusions[2].currency`): the currency defaults to
 * the plan's and must be the property's base or a configured currency; the amount is money in that currency.
 */
export const checkInclusions = (
  entries: ReadonlyArray<InclusionInput>,
  planCurrency: string,
  currencies: ReadonlyArray<string>
): Check<ReadonlyArray<InclusionFields>> =>
  Result.all(entries.map((entry, i) => {
    const at = (field: string) => `inclusions[${i}].${field}`
    const currency = entry.currency ?? planCurrency
    if (!currencies.includes(currency)) {
      return fail(at("currency"), `must be the property's base currency or a configured currency (${currencies.join(", ")})`)
    }
    return Result.map(money(at("allocated_amount"), entry.allocated_amount, currency), (amount): InclusionFields => ({
      label: entry.label,
      allocated_amount: amount,
      frequency: entry.frequency,
      inclusion_kind: entry.inclusion_kind ?? "perk",
      revenue_category: entry.revenue_category,
      service_item_id: entry.service_item_id ?? null,
      currency,
      included_quantity: entry.included_quantity ?? 1
    }))
  }))
