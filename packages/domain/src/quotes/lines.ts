// The folio charge lines a stay is priced into: `GET /rates` shows them and a hold writes exactly these
//, so the quote and the folio can never disagree. Every amount is already rounded to the
// stay currency's minor units, so sums of lines are exact.
import type { Amount } from "../money/Money.js"
import type { IsoDate } from "./dates.js"

export type LineKind = "room" | "tax" | "addon" | "addon_tax"

export interface QuoteLine {
  readonly kind: LineKind
  readonly description: string
  readonly amount: Amount
  /** `room` for nights, the service's category for add-ons; null for taxes (not revenue of a category). */
  readonly revenueCategory: string | null
  /** The tax code (property taxes). */
  readonly code?: string
  /** The service of an add-on or its tax. */
  readonly serviceId?: string
  /** Units booked (add-ons: the requested quantity; a room night: 1). */
  readonly quantity?: number
  /** The night a room line charges. */
  readonly date?: IsoDate
}
