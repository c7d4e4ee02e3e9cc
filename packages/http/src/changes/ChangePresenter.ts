import { Money } from "@hotel/domain"
import type { ChangeQuoteResult } from "@hotel/persistence/changes/ChangeQuote"
import { balancesOf } from "@hotel/persistence/folios/FolioLines"
import type { ChangeQuoteView } from "@hotel/api/changes/Api"
import { formatBalances } from "@hotel/persistence/folios/BalanceView"

/** A change quote on the wire: every amount in the new stay's currency; each night's trace only `withTrace`. */
export const presentChangeQuote = (result: ChangeQuoteResult, withTrace: boolean): typeof ChangeQuoteView.Type => {
  const { outcome } = result
  const fmt = (amount: Money.Amount) => Money.format(amount, outcome.currency)
  return {
    reservation_id: result.reservationId,
    bookable: result.bookable,
    reasons: result.reasons,
    currency: outcome.currency,
    previous_total: fmt(outcome.previousTotal),
    total: fmt(outcome.total),
    difference: fmt(result.difference),
    nights: outcome.nights.map((night) =>
      withTrace
        ? { date: night.date, amount: fmt(night.amount), trace: night.trace, kept: night.kept }
        : { date: night.date, amount: fmt(night.amount), kept: night.kept }
    ),
    lines: outcome.lines.map((line) => ({ kind: line.kind, description: line.description, amount: fmt(line.amount) })),
    amount_due: fmt(outcome.settlement.amountDue),
    refund_due_minor: Number(outcome.settlement.refundDueMinor)
  }
}
