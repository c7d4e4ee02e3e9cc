// Add-ons booked with a stay: the service's base-currency price × the units of its pricing
// unit × quantity, converted to the stay currency and rounded as one line; a service's own tax rule is a
// separate `addon_tax` line levied on that rounded line (percent), or once per add-on line for fixed kinds
// (per stay / per night / per guest per night of the stay — not multiplied by `quantity`).
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import { times } from "./arith.js"
import { unitsOf } from "./frequency.js"
import { fromBase } from "./fx.js"
import type { QuoteLine } from "./lines.js"
import type { AddOn } from "./model.js"
import { levy, type StayFacts } from "./taxes.js"

export const addOnLines = (addOn: AddOn, facts: StayFacts): ReadonlyArray<QuoteLine> => {
  const { quantity, service } = addOn
  const units = unitsOf(service.pricingUnit, facts.nights, facts.guests.total) * quantity
  const amount = Money.round(fromBase(facts.property, times(service.price, units), facts.currency), facts.currency)
  const line: QuoteLine = {
    kind: "addon",
    description: quantity === 1 ? service.name : `${service.name} x ${quantity}`,
    amount,
    revenueCategory: service.revenueCategory,
    serviceId: service.id,
    quantity
  }
  if (service.tax == null) return [line]
  const tax = levy(service.tax, amount, facts)
  // A zero tax writes no line, like property taxes (see quote.ts).
  if (BigDecimal.isZero(tax)) return [line]
  return [line, {
    kind: "addon_tax",
    description: `${service.name} tax`,
    amount: tax,
    revenueCategory: null,
    serviceId: service.id
  }]
}
