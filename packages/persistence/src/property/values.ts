// How property-file values are stored.
import type { PropertyFileCancellationTier } from "@hotel/domain"

/** Tiers as stored (jsonb), most days first. */
export const policyJson = (tiers: ReadonlyArray<PropertyFileCancellationTier>): string =>
  JSON.stringify(
    [...tiers]
      .sort((a, b) => b.days_before_arrival - a.days_before_arrival)
      .map((t) => ({ days_before_arrival: t.days_before_arrival, refund_percent: t.refund_percent }))
  )

/** An optional field the file leaves out is stored as NULL. */
export const orNull = <A>(value: A | undefined): A | null => (value === undefined ? null : value)
