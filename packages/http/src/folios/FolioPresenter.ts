import { Money } from "@hotel/domain"
import type { ChargeResult } from "@hotel/persistence/folios/Charges"
import { presentBalances } from "@hotel/persistence/folios/BalanceView"
import { presentLine } from "@hotel/persistence/folios/FolioView"
import type { PaymentRecorded as Recorded } from "@hotel/persistence/folios/Payments"
import { balancesOf } from "@hotel/persistence/folios/FolioLines"
import { formatBalances } from "@hotel/persistence/folios/BalanceView"
import type { ChargePosted, PaymentRecorded } from "@hotel/api/folios/Api"

export const presentCharge = (result: ChargeResult): typeof ChargePosted.Type => ({
  charge_id: result.chargeId,
  reservation_id: result.reservationId,
  folio_id: result.folioId,
  currency: result.currency,
  credit_applied: Money.format(result.creditApplied, result.currency),
  lines: result.written.map((line) => presentLine(line, result.baseCurrency)),
  ...presentBalances(result.lines, false, result.baseCurrency)
})

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
