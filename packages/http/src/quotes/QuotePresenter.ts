import * as Option from "effect/Option"
import { Money } from "@hotel/domain"
import type { Offer } from "@hotel/persistence/quotes/Quotes"
import type { Offer as OfferWire } from "@hotel/api/quotes/Api"

/**
 * An offer on the wire: every amount in the plan currency's minor units (inclusions in their own currency);
 * each night's trace only when `withTrace` (`include=trace`).
 */
export const presentOffer = (offer: Offer, withTrace: boolean): typeof OfferWire.Type => {
  const currency = offer.currency
  const fmt = (amount: Money.Amount) => Money.format(amount, currency)
  const quote = Option.getOrNull(offer.quote)
  return {
    rate_plan_id: offer.plan.id,
    rate_plan_name: offer.plan.publicName ?? offer.plan.name,
    room_type_id: offer.roomType.id,
    currency,
    total: quote === null ? null : fmt(quote.total),
    nightly_rate: quote === null ? null : fmt(quote.nightlyRate),
    nights: offer.nights.map((night) =>
      withTrace
        ? {
          date: night.date,
          amount: fmt(night.amount),
          // The engine's entries already have the wire's shape (an entry without detail has no `detail` key).
          trace: night.trace
        }
        : { date: night.date, amount: fmt(night.amount) }
    ),
    lines: quote === null
      ? []
      : quote.lines.map((line) => ({ kind: line.kind, description: line.description, amount: fmt(line.amount) })),
    taxes: quote === null ? [] : quote.taxes.map((tax) => ({ code: tax.code, name: tax.name, amount: fmt(tax.amount) })),
    cancellation_terms: offer.cancellationTerms.map((term) => ({ until: term.until, refund_percent: term.refundPercent })),
    inclusions: quote === null ? [] : quote.entitlements.map((entitlement) => ({
      label: entitlement.label,
      inclusion_kind: entitlement.inclusionKind,
      revenue_category: entitlement.revenueCategory,
      service_item_id: entitlement.serviceItemId,
      currency: entitlement.currency,
      quantity: entitlement.quantity,
      allowance: Money.format(entitlement.allowance, entitlement.currency)
    })),
    available: offer.available,
    bookable: offer.bookable,
    reasons: offer.reasons
  }
}
