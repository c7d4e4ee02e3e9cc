import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"

/**
 * How a folio line counts. Charges owe money (room nights, taxes, add-ons, posted charges, a cancellation
 * fee); payments settle it (asserted payments and consumed credits); a refund gives paid money back, so it
 * lowers payments. Voided lines (the stay of a cancelled reservation) count for nothing.
 */
export type LineEffect = "charge" | "payment" | "refund" | "none"

// A change of the stay appends `reversal` lines (negative charges cancelling the previous stay's priced lines)
// and, when the guest paid more than the new total, a `change_fee`.
export const chargeKinds: ReadonlyArray<string> = [
  "room", "tax", "addon", "addon_tax", "reversal", "charge", "cancellation_fee", "change_fee"
]
export const paymentKinds: ReadonlyArray<string> = ["payment", "credit"]

/** The fees a property keeps of money paid: they still count once the folio is voided. */
const keptFees: ReadonlyArray<string> = ["cancellation_fee", "change_fee"]

/**
 * A voided folio (its reservation cancelled) keeps its lines for audit, but only money that moved still counts:
 * its charges are void, and so are the credit lines that paid for some of them (a credit is not money paid).
 * A fee kept of what was paid (a change's, the cancel's) stays, so refunds and fees add up to the payments.
 */
export const voidedByFolio = (kind: string, folioVoided: boolean): boolean =>
  folioVoided && !keptFees.includes(kind) && (chargeKinds.includes(kind) || kind === "credit")

export const effectOf = (kind: string, voided: boolean): LineEffect =>
  voided ? "none" : chargeKinds.includes(kind)
  ? "charge"
  : paymentKinds.includes(kind)
  ? "payment"
  : kind === "refund"
  ? "refund"
  : "none"

export interface BalanceLine {
  readonly kind: string
  readonly amount: Money.Amount
  readonly currency: string
  /** Base-currency units per one unit of the line's currency, frozen when written; null when none was configured. */
  readonly exchangeRate: Money.Amount | null
  readonly voided?: boolean
}

export interface CurrencyBalance {
  readonly currency: string
  readonly charges: Money.Amount
  readonly payments: Money.Amount
  readonly balance: Money.Amount
}

export interface FolioBalances {
  /** The trusted figures, one entry per currency, in order of first appearance. */
  readonly entries: ReadonlyArray<CurrencyBalance>
  /** Base-currency estimates from each line's frozen rate; null when any line has no rate. */
  readonly totalCharges: Money.Amount | null
  readonly balance: Money.Amount | null
}

const signed = (line: BalanceLine): { charges: Money.Amount; payments: Money.Amount } => {
  switch (effectOf(line.kind, line.voided ?? false)) {
    case "charge":
      return { charges: line.amount, payments: Money.zero }
    case "payment":
      return { charges: Money.zero, payments: line.amount }
    case "refund":
      return { charges: Money.zero, payments: BigDecimal.negate(line.amount) }
    case "none":
      return { charges: Money.zero, payments: Money.zero }
  }
}

interface Sums {
  readonly charges: Money.Amount
  readonly payments: Money.Amount
}

const add = (sums: Sums | undefined, line: BalanceLine): Sums => {
  const { charges, payments } = signed(line)
  return {
    charges: BigDecimal.sum(sums?.charges ?? Money.zero, charges),
    payments: BigDecimal.sum(sums?.payments ?? Money.zero, payments)
  }
}

/**
 * Amounts in different currencies are never added. The flat fields value each currency's lines at the rate
 * frozen on them: lines sharing a currency and a rate are converted together and rounded once, so a stay paid
 * in full in its own currency is also settled in the base-currency estimate.
 */
export const folioBalances = (lines: ReadonlyArray<BalanceLine>, baseCurrency: string): FolioBalances => {
  const byCurrency = new Map<string, Sums>()
  const byRate = new Map<string, { readonly rate: Money.Amount; readonly sums: Sums }>()
  let unpriced = false
  for (const line of lines) {
    byCurrency.set(line.currency, add(byCurrency.get(line.currency), line))
    const rate = line.currency === baseCurrency ? BigDecimal.fromBigInt(1n) : line.exchangeRate
    if (rate === null) {
      unpriced = true
      continue
    }
    const group = `${line.currency}@${Money.toDb(rate)}`
    byRate.set(group, { rate, sums: add(byRate.get(group)?.sums, line) })
  }
  const entries = Array.from(byCurrency, ([currency, sums]) => ({
    currency,
    charges: sums.charges,
    payments: sums.payments,
    balance: BigDecimal.subtract(sums.charges, sums.payments)
  }))
  if (unpriced) return { entries, totalCharges: null, balance: null }
  const inBase = (amount: Money.Amount, rate: Money.Amount) => Money.round(BigDecimal.multiply(amount, rate), baseCurrency)
  const groups = Array.from(byRate.values())
  return {
    entries,
    totalCharges: Money.sum(groups.map(({ rate, sums }) => inBase(sums.charges, rate))),
    balance: Money.sum(groups.map(({ rate, sums }) => inBase(BigDecimal.subtract(sums.charges, sums.payments), rate)))
  }
}

/** Settled only when nothing is owed in any currency: a credit in one never offsets a debt in another. */
export const isSettled = (balances: FolioBalances): boolean =>
  balances.entries.every((entry) => BigDecimal.isLessThanOrEqualTo(entry.balance, Money.zero))
