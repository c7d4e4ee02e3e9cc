import { Money } from "@hotel/domain"
import type { ChangeQuoteResult } from "@hotel/persistence/changes/ChangeQuote"
import type { PaymentRecorded as Recorded } from "@hotel/persistence/changes/Payments"
import { balancesOf } from "@hotel/persistence/folios/FolioLines"
import type { ChangeQuoteView, PaymentRecorded } from "./Api.js"
import { formatBalances } from "../folios/BalancePresenter.js"

/** A change quote on the wire: every amount in the new stay's currency. */
export const presentChangeQuote = (result: ChangeQuoteResult): typeof ChangeQuoteView.Type => {
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
    nights: outcome.nights.map((night) => ({ date: night.date, amount: fmt(night.amount), trace: night.trace, kept: night.kept })),
    lines: outcome.lines.map((line) => ({ kind: line.kind, description: line.description, amount: fmt(line.amount) })),
    amount_due: fmt(outcome.settlement.amountDue),
    refund_due_minor: Number(outcome.settlement.refundDueMinor)
  }
}

/** A recorded payment with the folio's figures after it. */
export const presentPayment = (recorded: Recorded): typeof PaymentRecorded.Type => {
  const figures = formatBalances(balancesOf(recorded.lines, false, recorded.baseCurrency), recorded.baseCurrency)
  return {
    reservation_id: recorded.reservationId,
    payment_reference: recorded.reference,
    amount: Money.format(recorded.amount, recorded.currency),
    currency: recorded.currency,
    folio_balance: figures.balance,
    balances: figures.balances
  }
}
