import { decimal, money, timestamp } from "@hotel/domain/common/Format"
import { presentBalances } from "./BalanceView.js"
import type { FolioLineDetail, FolioRow } from "./FolioRepository.js"

// A folio as `GET /folios/{id}` writes it and its events carry it.

/**
 * A line in its own currency. `exchange_rate` is the rate frozen on the line, as a plain decimal; a line in the
 * base currency has rate 1 by definition.
 */
export const presentLine = (line: FolioLineDetail, baseCurrency: string) => ({
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

export const presentFolio = (folio: FolioRow, lines: ReadonlyArray<FolioLineDetail>) => ({
  id: folio.id,
  reservation_id: folio.reservation_id,
  status: folio.status,
  currency: folio.currency,
  lines: lines.map((line) => presentLine(line, folio.base_currency)),
  ...presentBalances(lines, folio.status === "voided", folio.base_currency)
})
