import type * as SqlClient from "effect/sql/SqlClient"
import { Folio, Money } from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import type { FolioLineRow } from "../booking/ReservationQueries.js"

// Folio lines after the hold: every later line (a payment, a charge and its credits, a refund, a cancellation
// fee) is appended at the folio's next position with the exchange rate in force when it is written, and every
// figure a folio shows is read from its lines through `Folio.folioBalances`. The helpers run in the caller's
// transaction; appends rely on the caller's lock on the reservation row to keep positions unique.

/** A folio line with the posting details a charge records. */
export interface FolioLineDetail extends FolioLineRow {
  readonly service_id: string | null
  readonly quantity: number | null
}

/** A line to append; the posting details default to none. */
export interface NewFolioLine {
  readonly kind: string
  readonly description: string
  readonly amount: Money.Amount
  readonly currency: string
  /** Base units per one unit of `currency` when written (`rateToBase`). */
  readonly exchangeRate: string | null
  readonly revenueCategory?: string | null
  readonly serviceId?: string | null
  readonly quantity?: number | null
  readonly entitlementId?: string | null
  readonly appliesToLineId?: string | null
}

/** The lines of one folio in the order they were written. */
export const folioLinesOf = (sql: SqlClient.SqlClient, folioId: string) =>
  sql<FolioLineDetail>`
    SELECT id, folio_id, kind, description, amount::text AS amount, currency, exchange_rate::text AS exchange_rate,
           revenue_category, service_id, quantity, created_at
    FROM folio_lines WHERE folio_id = ${folioId}
    ORDER BY position, id`

/** A folio line as `Folio.paidTowardsStay` reads it, as a statement's JSON column gives it. */
export interface PaidLineJson {
  readonly kind: string
  readonly amount: string
  readonly currency: string
}

/**
 * A column of a statement over `folios f`: every line of that folio, in order, as the money rules read it
 * (`PaidLineJson`), so the facts of a cancel or a change are still read in one statement and what was paid is
 * decided by the domain (`paidTowards`), never summed in SQL.
 */
export const paidLinesColumn = (sql: SqlClient.SqlClient) =>
  sql`(SELECT COALESCE(json_agg(json_build_object('kind', l.kind, 'amount', l.amount::text, 'currency', l.currency)
                                ORDER BY l.position), '[]'::json)
       FROM folio_lines l WHERE l.folio_id = f.id)`

/** What was paid towards the stay in `currency`, from the lines `paidLinesColumn` read. */
export const paidTowards = (lines: ReadonlyArray<PaidLineJson>, currency: string): Money.Amount =>
  Folio.paidTowardsStay(
    lines.map((line) => ({ kind: line.kind, amount: Money.fromDb(line.amount), currency: line.currency })),
    currency
  )

/** Base units per one unit of `currency` now: 1 for the base currency, null when none is configured. */
export const rateToBase = (sql: SqlClient.SqlClient, propertyId: string, currency: string, baseCurrency: string) =>
  currency === baseCurrency
    ? Effect.succeed<string | null>("1")
    : sql<{ rate_to_base: string }>`
        SELECT rate_to_base::text AS rate_to_base FROM property_currencies
        WHERE property_id = ${propertyId} AND currency = ${currency}`.pipe(
        Effect.map((rows) => rows[0]?.rate_to_base ?? null)
      )

/** Appends `line` after the folio's last line; answers the new line's id. */
export const appendLine = (sql: SqlClient.SqlClient, folioId: string, line: NewFolioLine, now: Date) =>
  sql<{ id: string }>`
    INSERT INTO folio_lines (folio_id, position, kind, description, amount, currency, exchange_rate,
                             revenue_category, service_id, quantity, entitlement_id, applies_to_line_id,
                             created_at)
    VALUES (${folioId}, (SELECT COALESCE(max(position) + 1, 0) FROM folio_lines WHERE folio_id = ${folioId}),
            ${line.kind}, ${line.description}, ${Money.toDb(line.amount)}, ${line.currency}, ${line.exchangeRate},
            ${line.revenueCategory ?? null}, ${line.serviceId ?? null}, ${line.quantity ?? null},
            ${line.entitlementId ?? null}, ${line.appliesToLineId ?? null}, ${now})
    RETURNING id`.pipe(
    Effect.flatMap((rows) =>
      rows[0] === undefined ? Effect.die(new Error("INSERT ... RETURNING gave no row")) : Effect.succeed(rows[0].id)
    )
  )

/** The figures of a folio's lines; a voided folio's stay lines count for nothing. */
export const balancesOf = (
  lines: ReadonlyArray<FolioLineRow>,
  folioVoided: boolean,
  baseCurrency: string
): Folio.FolioBalances =>
  Folio.folioBalances(
    lines.map((line) => ({
      kind: line.kind,
      amount: Money.fromDb(line.amount),
      currency: line.currency,
      exchangeRate: line.exchange_rate === null ? null : Money.fromDb(line.exchange_rate),
      voided: Folio.voidedByFolio(line.kind, folioVoided)
    })),
    baseCurrency
  )

/** What is still to pay in the reservation currency: its charges less its payments (never below zero). */
export const amountDue = (lines: ReadonlyArray<FolioLineRow>, currency: string, folioVoided: boolean): Money.Amount => {
  const balances = balancesOf(lines.filter((line) => line.currency === currency), folioVoided, currency)
  const balance = balances.entries[0]?.balance ?? Money.zero
  return BigDecimal.isNegative(balance) ? Money.zero : balance
}
