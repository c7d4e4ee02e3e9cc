import { type Folio, Money } from "@hotel/domain"
import type { FolioLineRow } from "../booking/ReservationQueries.js"
import { balancesOf } from "./FolioLines.js"

export interface BalanceEntryWire {
  readonly currency: string
  readonly charges: string
  readonly payments: string
  readonly balance: string
}

export interface FolioFigures {
  readonly balances: ReadonlyArray<BalanceEntryWire>
  readonly balance: string | null
  readonly total_charges: string | null
}

/** The per-currency truth and the base-currency estimates, on the wire. */
export const presentBalances = (
  lines: ReadonlyArray<FolioLineRow>,
  folioVoided: boolean,
  baseCurrency: string
): FolioFigures => formatBalances(balancesOf(lines, folioVoided, baseCurrency), baseCurrency)

/** Figures already computed (a read service's record), on the wire. */
export const formatBalances = (figures: Folio.FolioBalances, baseCurrency: string): FolioFigures => {
  return {
    balances: figures.entries.map((entry) => ({
      currency: entry.currency,
      charges: Money.format(entry.charges, entry.currency),
      payments: Money.format(entry.payments, entry.currency),
      balance: Money.format(entry.balance, entry.currency)
    })),
    balance: figures.balance === null ? null : Money.format(figures.balance, baseCurrency),
    total_charges: figures.totalCharges === null ? null : Money.format(figures.totalCharges, baseCurrency)
  }
}
