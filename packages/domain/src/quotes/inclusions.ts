// Inclusions are not charged: at hold time they become the reservation's entitlements, with
// quantity and allowance multiplied by the frequency. The allowance stays in the inclusion's own currency.
import type { Amount } from "../money/Money.js"
import { times } from "./arith.js"
import { unitsOf } from "./frequency.js"
import type { Inclusion } from "./model.js"

export interface Entitlement {
  readonly label: string
  readonly inclusionKind: "perk" | "credit"
  readonly revenueCategory: string
  readonly serviceItemId: string | null
  readonly currency: string
  readonly quantity: number
  readonly allowance: Amount
}

export const entitlementOf = (inclusion: Inclusion, nights: number, guests: number): Entitlement => {
  const units = unitsOf(inclusion.frequency, nights, guests)
  return {
    label: inclusion.label,
    inclusionKind: inclusion.inclusionKind,
    revenueCategory: inclusion.revenueCategory,
    serviceItemId: inclusion.serviceItemId ?? null,
    currency: inclusion.currency,
    quantity: inclusion.includedQuantity * units,
    allowance: times(inclusion.allocatedAmount, units)
  }
}
