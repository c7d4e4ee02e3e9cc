// Collecting the cross-field problems of a property file, each with the path of its field, and the checks
// several sections share (unique keys, money, percentages, cancellation tiers).
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as Money from "../../money/Money.js"
import type { PropertyFileCancellationTier } from "./sections.js"

export type Path = ReadonlyArray<PropertyKey>

export class Issues {
  readonly all: Array<Schema.FilterIssue> = []
  add(path: Path, message: string): void {
    this.all.push({ path, issue: message })
  }
  /** Reports every entry whose `key` repeats an earlier one. */
  unique<A>(items: ReadonlyArray<A>, key: (a: A) => string | number, path: (i: number) => Path, what: string) {
    const seen = new Set<string | number>()
    items.forEach((item, i) => {
      const k = key(item)
      if (seen.has(k)) this.add(path(i), `duplicate ${what} ${JSON.stringify(k)}`)
      seen.add(k)
    })
  }
  money(path: Path, value: string, currency: string, options: { readonly allowNegative?: boolean } = {}) {
    const parsed = Money.parse(value, currency)
    if (Result.isFailure(parsed)) return this.add(path, Money.problemMessage(parsed.failure, currency))
    if (options.allowNegative !== true && BigDecimal.isNegative(parsed.success)) {
      this.add(path, "must not be negative")
    }
  }
  percent(path: Path, value: string, min: number, max: number) {
    const amount = BigDecimal.fromStringUnsafe(value)
    if (
      BigDecimal.isLessThan(amount, BigDecimal.fromNumberUnsafe(min)) ||
      BigDecimal.isGreaterThan(amount, BigDecimal.fromNumberUnsafe(max))
    ) this.add(path, `must be a percentage from ${min} to ${max}`)
  }
}

/** A policy's tiers have distinct `days_before_arrival` (the property's and each plan's). */
export const checkPolicy = (issues: Issues, tiers: ReadonlyArray<PropertyFileCancellationTier>, path: Path) =>
  issues.unique(tiers, (t) => t.days_before_arrival, (i) => [...path, i, "days_before_arrival"], "days_before_arrival")
