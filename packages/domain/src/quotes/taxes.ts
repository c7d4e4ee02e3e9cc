// Tax rules: a percentage of room revenue (or of add-on revenue), or a
// fixed base-currency amount per stay, per night or per guest per night. The same arithmetic serves a
// service's own tax rule, levied on its add-on line.
//
// - `maxNights` caps the nights counted by `perNight` and `perGuestPerNight`; it has no meaning for
//   `perStay` or `percent` and is ignored there.
// - `exemptUnderAge` exempts children younger than that age from `perGuestPerNight`. A child whose age was
//   not given (a `children` count without `child_ages`) is taxed: without an age there is no evidence for
//   the exemption, the same "no age, no age-based relief" rule that charges such a child 100% as an extra
//   guest. Adults are never exempt.
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { percentOf, times } from "./arith.js"
import { fromBase } from "./fx.js"
import type { Guests } from "./guests.js"
import type { Opt, PricingProperty, Tax, TaxKind } from "./model.js"

export interface TaxRule {
  readonly kind: TaxKind
  readonly value: Amount
  readonly maxNights?: Opt<number>
  readonly exemptUnderAge?: Opt<number>
}

/** What a tax needs to know about the stay. */
export interface StayFacts {
  readonly property: PricingProperty
  /** The stay (plan) currency every line is written in. */
  readonly currency: string
  readonly nights: number
  readonly guests: Guests
}

const cappedNights = (rule: TaxRule, nights: number): number =>
  rule.maxNights == null ? nights : Math.max(0, Math.min(nights, rule.maxNights))

export const taxableGuests = (guests: Guests, exemptUnderAge: Opt<number>): number =>
  guests.adults +
  guests.children.filter((age) => exemptUnderAge == null || age === null || age >= exemptUnderAge).length

/** How many times a fixed-amount rule is levied on the stay. */
export const fixedTaxUnits = (rule: TaxRule, facts: StayFacts): number => {
  switch (rule.kind) {
    case "percent":
      return 0
    case "perStay":
      return 1
    case "perNight":
      return cappedNights(rule, facts.nights)
    case "perGuestPerNight":
      return taxableGuests(facts.guests, rule.exemptUnderAge) * cappedNights(rule, facts.nights)
  }
}

/**
 * The rounded amount of a rule in the stay currency: `percent` of `taxedRevenue` (already in the stay
 * currency), or the fixed base-currency value × units converted to the stay currency. Converting the line
 * total (not the unit) and rounding once keeps to "rounded per line".
 */
export const levy = (rule: TaxRule, taxedRevenue: Amount, facts: StayFacts): Amount =>
  Money.round(
    rule.kind === "percent"
      ? percentOf(taxedRevenue, rule.value)
      : fromBase(facts.property, times(rule.value, fixedTaxUnits(rule, facts)), facts.currency),
    facts.currency
  )

/** A property tax levied on add-on revenue rather than on the room. */
export const onAddons = (tax: Tax): boolean => tax.kind === "percent" && tax.appliesTo === "addons"
