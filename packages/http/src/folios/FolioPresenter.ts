import { Money } from "@hotel/domain"
import type { ChargeResult } from "@hotel/persistence/folios/Charges"
import type { FolioLineDetail, FolioRow } from "@hotel/persistence/folios/FolioRepository"
import type { ChargePosted } from "./Api.js"
import type { FolioLine, FolioView } from "./Api.js"
import { presentBalances } from "./BalancePresenter.js"
import { decimal, money, timestamp } from "../common/Format.js"

/**
 * A line in its own currency. `exchange_rate` is the rate frozen on the line, as a plain decimal; a line in the
 * base currency has rate 1 by definition.
 */
export const presentLine = (line: FolioLineDetail, baseCurrency: string): typeof FolioLine.Type => ({
  id: line.id,
  kind: line.kind,
  description: line.description,
  amount: money(line.amount, line.currency),
  currency: line.currency,
  exchange_rate: line.exchange_rate !== null ? decimal(line.exchange_rate) : line.currency === baseCurrency ? "1" : null,
  revenue_category: line.revenue_category,
  service_id: line.service_id,
  quantity: line.quantity,
  created_at: timestamp(line.created_at)
})

export const presentFolio = (folio: FolioRow, lines: ReadonlyArray<FolioLineDetail>): typeof FolioView.Type => ({
  id: folio.id,
  reservation_id: folio.reservation_id,
  status: folio.status,
  currency: folio.currency,
  lines: lines.map((line) => presentLine(line, folio.base_currency)),
  ...presentBalances(lines, folio.status === "voided", folio.base_currency)
})

export const presentCharge = (result: ChargeResult): typeof ChargePosted.Type => ({
  charge_id: result.chargeId,
  reservation_id: result.reservationId,
  folio_id: result.folioId,
  currency: result.currency,
  credit_applied: Money.format(result.creditApplied, result.currency),
  lines: result.written.map((line) => presentLine(line, result.baseCurrency)),
  ...presentBalances(result.lines, false, result.baseCurrency)
})
