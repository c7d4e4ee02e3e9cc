// Rate plan writes (interface 2.2, decisions 1 to 4): the request bodies of POST and PATCH `/rate-plans`, and the
// rules on a plan's fields. A POST is turned into a complete set of fields with the defaults; a PATCH is merged
// onto the stored plan; either way the whole result is checked, so a plan is valid after every write.
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { all, bounds, type Check, fail, money, ok, percent, window } from "./checks.js"
import {
  BoolField,
  CancellationTierField,
  CurrencyField,
  DateField,
  DecimalField,
  DerivationType,
  DiscountType,
  IdField,
  immutable,
  int,
  list,
  nullable,
  optional,
  RatePlanKind,
  text,
  UrlField
} from "./fields.js"

const Name = text(1, 100)
const PublicName = text(1, 100)
const Description = text(0, 2000)
const Los = int(1, 366)
const Policy = list(CancellationTierField, 20)

/** `POST /rate-plans`. Nullable fields also accept `null` (the same as leaving them out). */
export const RatePlanCreate = Schema.Struct({
  room_type_id: IdField,
  name: Name,
  base_price: DecimalField,
  currency: optional(CurrencyField),
  public_name: nullable(PublicName),
  description: nullable(Description),
  image_url: nullable(UrlField),
  extra_guest_charge: optional(DecimalField),
  single_guest_discount: optional(DecimalField),
  single_guest_discount_type: optional(DiscountType),
  min_los: nullable(Los),
  max_los: nullable(Los),
  booking_window_start: nullable(DateField),
  booking_window_end: nullable(DateField),
  stay_window_start: nullable(DateField),
  stay_window_end: nullable(DateField),
  active_for_booking_engine: optional(BoolField),
  active_for_channels: optional(BoolField),
  kind: optional(RatePlanKind),
  derived_from_id: nullable(IdField),
  derivation_type: nullable(DerivationType),
  derivation_value: nullable(DecimalField),
  requires_promo_code: optional(BoolField),
  cancellation_policy: nullable(Policy)
}).annotations({ identifier: "RatePlanCreate" })
export type RatePlanCreate = typeof RatePlanCreate.Type

/** `PATCH /rate-plans/{id}`: any field of the create body but `room_type_id`, plus `is_active`; `null` clears. */
export const RatePlanPatch = Schema.Struct({
  room_type_id: immutable("cannot be changed; create a new rate plan for another room type"),
  name: optional(Name),
  base_price: optional(DecimalField),
  currency: optional(CurrencyField),
  public_name: nullable(PublicName),
  description: nullable(Description),
  image_url: nullable(UrlField),
  extra_guest_charge: optional(DecimalField),
  single_guest_discount: optional(DecimalField),
  single_guest_discount_type: optional(DiscountType),
  min_los: nullable(Los),
  max_los: nullable(Los),
  booking_window_start: nullable(DateField),
  booking_window_end: nullable(DateField),
  stay_window_start: nullable(DateField),
  stay_window_end: nullable(DateField),
  active_for_booking_engine: optional(BoolField),
  active_for_channels: optional(BoolField),
  kind: optional(RatePlanKind),
  derived_from_id: nullable(IdField),
  derivation_type: nullable(DerivationType),
  derivation_value: nullable(DecimalField),
  requires_promo_code: optional(BoolField),
  cancellation_policy: nullable(Policy),
  is_active: optional(BoolField)
}).annotations({ identifier: "RatePlanPatch" })
export type RatePlanPatch = typeof RatePlanPatch.Type

export interface CancellationTier {
  readonly days_before_arrival: number
  readonly refund_percent: number
}

/** Every writable field of a plan as stored (money and percentages as decimal text). */
export interface RatePlanFields {
  readonly room_type_id: string
  readonly name: string
  readonly public_name: string | null
  readonly description: string | null
  readonly image_url: string | null
  readonly base_price: string
  readonly currency: string
  readonly extra_guest_charge: string
  readonly single_guest_discount: string
  readonly single_guest_discount_type: "fixed" | "percent"
  readonly min_los: number | null
  readonly max_los: number | null
  readonly booking_window_start: string | null
  readonly booking_window_end: string | null
  readonly stay_window_start: string | null
  readonly stay_window_end: string | null
  readonly active_for_booking_engine: boolean
  readonly active_for_channels: boolean
  readonly kind: "standard" | "promotion"
  readonly derived_from_id: string | null
  readonly derivation_type: "percent" | "fixed" | "perPerson" | null
  readonly derivation_value: string | null
  readonly is_active: boolean
  readonly requires_promo_code: boolean
  readonly cancellation_policy: ReadonlyArray<CancellationTier> | null
}

/** What a derived plan must agree with: its parent's room type and currency. */
export interface ParentPlan {
  readonly id: string
  readonly room_type_id: string
  readonly currency: string
}

const orNull = <A>(value: A | null | undefined): A | null => (value === undefined ? null : value)

/**
 * A POST body with the defaults of 2.2 applied. The currency defaults to the parent's for a derived plan (it
 * prices in its parent's currency), otherwise to the property's base currency.
 */
export const fieldsFromCreate = (
  input: RatePlanCreate,
  defaults: { readonly baseCurrency: string; readonly parentCurrency: string | undefined }
): RatePlanFields => ({
  room_type_id: input.room_type_id,
  name: input.name,
  public_name: orNull(input.public_name),
  description: orNull(input.description),
  image_url: orNull(input.image_url),
  base_price: input.base_price,
  currency: input.currency ?? defaults.parentCurrency ?? defaults.baseCurrency,
  extra_guest_charge: input.extra_guest_charge ?? "0",
  single_guest_discount: input.single_guest_discount ?? "0",
  single_guest_discount_type: input.single_guest_discount_type ?? "fixed",
  min_los: orNull(input.min_los),
  max_los: orNull(input.max_los),
  booking_window_start: orNull(input.booking_window_start),
  booking_window_end: orNull(input.booking_window_end),
  stay_window_start: orNull(input.stay_window_start),
  stay_window_end: orNull(input.stay_window_end),
  active_for_booking_engine: input.active_for_booking_engine ?? false,
  active_for_channels: input.active_for_channels ?? false,
  kind: input.kind ?? "standard",
  derived_from_id: orNull(input.derived_from_id),
  derivation_type: orNull(input.derivation_type),
  derivation_value: orNull(input.derivation_value),
  is_active: true,
  requires_promo_code: input.requires_promo_code ?? false,
  cancellation_policy: orNull(input.cancellation_policy)
})

const keep = <A>(sent: A | undefined, stored: A): A => (sent === undefined ? stored : sent)

/**
 * A PATCH merged onto the stored plan. Clearing `derived_from_id` clears the derivation with it (a
 * `derivation_type`/`derivation_value` sent in the same request is then refused by `checkFields`).
 */
export const fieldsFromPatch = (patch: RatePlanPatch, stored: RatePlanFields): RatePlanFields => {
  const derivedFrom = keep(patch.derived_from_id, stored.derived_from_id)
  return {
    room_type_id: stored.room_type_id,
    name: keep(patch.name, stored.name),
    public_name: keep(patch.public_name, stored.public_name),
    description: keep(patch.description, stored.description),
    image_url: keep(patch.image_url, stored.image_url),
    base_price: keep(patch.base_price, stored.base_price),
    currency: keep(patch.currency, stored.currency),
    extra_guest_charge: keep(patch.extra_guest_charge, stored.extra_guest_charge),
    single_guest_discount: keep(patch.single_guest_discount, stored.single_guest_discount),
    single_guest_discount_type: keep(patch.single_guest_discount_type, stored.single_guest_discount_type),
    min_los: keep(patch.min_los, stored.min_los),
    max_los: keep(patch.max_los, stored.max_los),
    booking_window_start: keep(patch.booking_window_start, stored.booking_window_start),
    booking_window_end: keep(patch.booking_window_end, stored.booking_window_end),
    stay_window_start: keep(patch.stay_window_start, stored.stay_window_start),
    stay_window_end: keep(patch.stay_window_end, stored.stay_window_end),
    active_for_booking_engine: keep(patch.active_for_booking_engine, stored.active_for_booking_engine),
    active_for_channels: keep(patch.active_for_channels, stored.active_for_channels),
    kind: keep(patch.kind, stored.kind),
    derived_from_id: derivedFrom,
    derivation_type: derivedFrom === null
      ? orNull(patch.derivation_type)
      : keep(patch.derivation_type, stored.derivation_type),
    derivation_value: derivedFrom === null
      ? orNull(patch.derivation_value)
      : keep(patch.derivation_value, stored.derivation_value),
    is_active: keep(patch.is_active, stored.is_active),
    requires_promo_code: keep(patch.requires_promo_code, stored.requires_promo_code),
    cancellation_policy: keep(patch.cancellation_policy, stored.cancellation_policy)
  }
}

const currencyRule = (currency: string, currencies: ReadonlyArray<string>): Check<void> =>
  currencies.includes(currency)
    ? ok
    : fail("currency", `must be the property's base currency or a configured currency (${currencies.join(", ")})`)

/**
 * The checks a PATCH body allows on its own, before the stored plan is loaded (field validation comes before
 * looking resources up): the currency, and the bounds and windows it sends both ends of.
 */
export const checkPatchAlone = (patch: RatePlanPatch, currencies: ReadonlyArray<string>): Check<void> =>
  all(
    () => (patch.currency === undefined ? ok : currencyRule(patch.currency, currencies)),
    () => bounds("min_los", patch.min_los, "max_los", patch.max_los),
    () => window("booking_window_start", patch.booking_window_start, "booking_window_end", patch.booking_window_end),
    () => window("stay_window_start", patch.stay_window_start, "stay_window_end", patch.stay_window_end)
  )

/**
 * Every rule on a plan's own fields, in the order of 2.2; answers the fields with money and percentages
 * normalised for storage. `currencies` are the property's base currency and its configured ones.
 */
export const checkFields = (fields: RatePlanFields, currencies: ReadonlyArray<string>): Check<RatePlanFields> => {
  const currency = fields.currency
  const checked = Either.all({
    currency: currencyRule(currency, currencies),
    base_price: money("base_price", fields.base_price, currency),
    extra_guest_charge: money("extra_guest_charge", fields.extra_guest_charge, currency),
    single_guest_discount: fields.single_guest_discount_type === "percent"
      ? percent("single_guest_discount", fields.single_guest_discount, 0, 100)
      : money("single_guest_discount", fields.single_guest_discount, currency),
    los: bounds("min_los", fields.min_los, "max_los", fields.max_los),
    booking: window("booking_window_start", fields.booking_window_start, "booking_window_end", fields.booking_window_end),
    stay: window("stay_window_start", fields.stay_window_start, "stay_window_end", fields.stay_window_end),
    derivation: checkDerivation(fields),
    policy: checkPolicy(fields.cancellation_policy)
  })
  return Either.map(checked, (c) => ({
    ...fields,
    base_price: c.base_price,
    extra_guest_charge: c.extra_guest_charge,
    single_guest_discount: c.single_guest_discount,
    derivation_value: c.derivation,
    cancellation_policy: c.policy
  }))
}

/** Derivation fields go together: both with `derived_from_id`, neither without it. */
const checkDerivation = (fields: RatePlanFields): Check<string | null> => {
  if (fields.derived_from_id === null) {
    if (fields.derivation_type !== null) return fail("derivation_type", "is only allowed with derived_from_id")
    if (fields.derivation_value !== null) return fail("derivation_value", "is only allowed with derived_from_id")
    return Either.right(null)
  }
  if (fields.derivation_type === null) return fail("derivation_type", "is required with derived_from_id")
  if (fields.derivation_value === null) return fail("derivation_value", "is required with derived_from_id")
  return fields.derivation_type === "percent"
    ? percent("derivation_value", fields.derivation_value, -100, 1000)
    : money("derivation_value", fields.derivation_value, fields.currency, { allowNegative: true })
}

/** Tiers with distinct `days_before_arrival`, stored most days first. */
const checkPolicy = (tiers: ReadonlyArray<CancellationTier> | null): Check<ReadonlyArray<CancellationTier> | null> => {
  if (tiers === null) return Either.right(null)
  const seen = new Set<number>()
  for (const [i, tier] of tiers.entries()) {
    if (seen.has(tier.days_before_arrival)) {
      return fail(`cancellation_policy[${i}].days_before_arrival`, `duplicate value ${tier.days_before_arrival}`)
    }
    seen.add(tier.days_before_arrival)
  }
  return Either.right(
    [...tiers]
      .sort((a, b) => b.days_before_arrival - a.days_before_arrival)
      .map((t) => ({ days_before_arrival: t.days_before_arrival, refund_percent: t.refund_percent }))
  )
}

/**
 * A derived plan prices its parent's room type in its parent's currency, and no chain of parents leads back
 * to the plan itself (decisions 3). `parents` maps every live plan of the property to its parent.
 */
export const checkParent = (
  planId: string | undefined,
  fields: RatePlanFields,
  parent: ParentPlan,
  parents: ReadonlyMap<string, string | null>
): Check<void> =>
  all(
    () => (planId !== undefined && createsCycle(planId, parent.id, parents)
      ? fail("derived_from_id", "would create a derivation cycle (a plan cannot derive from itself or its descendants)")
      : ok),
    () => (fields.room_type_id === parent.room_type_id
      ? ok
      : fail("room_type_id", `must be the parent plan's room type (${parent.room_type_id})`)),
    () => (fields.currency === parent.currency
      ? ok
      : fail("currency", `must be the parent plan's currency (${parent.currency})`))
  )

/** Whether making `planId` derive from `parentId` closes a loop in the derivation graph. */
export const createsCycle = (
  planId: string,
  parentId: string,
  parents: ReadonlyMap<string, string | null>
): boolean => {
  const seen = new Set<string>()
  let current: string | null | undefined = parentId
  while (current != null && !seen.has(current)) {
    if (current === planId) return true
    seen.add(current)
    current = parents.get(current)
  }
  return false
}
