import initial from "./0001_initial.js"
import booking from "./0002_booking.js"
import stays from "./0003_stays.js"
import platformGuarantees from "./0004_platform_guarantees.js"
import keyRateLimit from "./0005_key_rate_limit.js"
import holdLimits from "./0006_hold_limits.js"
import events from "./0007_events.js"
import stayLength from "./0008_stay_length.js"
import lookupIndexes from "./0009_lookup_indexes.js"
import bookings from "./0010_bookings.js"
import reservationChanges from "./0011_reservation_changes.js"
import blocks from "./0012_blocks.js"
import inventory from "./0013_inventory.js"
import bucketTake from "./0014_bucket_take.js"
import heldOverbooking from "./0015_held_overbooking.js"
import bucketSettle from "./0016_bucket_settle.js"
import ratePlanNights from "./0017_rate_plan_nights.js"

// Keys must match `^(\d+)_(.+)$` or the migrator skips them silently. The migrator applies only ids above
// the latest one applied, so a new migration always takes the next number.
export const migrations = {
  "0001_initial": initial,
  "0002_booking": booking,
  "0003_stays": stays,
  "0004_platform_guarantees": platformGuarantees,
  "0005_key_rate_limit": keyRateLimit,
  "0006_hold_limits": holdLimits,
  "0007_events": events,
  "0008_stay_length": stayLength,
  "0009_lookup_indexes": lookupIndexes,
  "0010_bookings": bookings,
  "0011_reservation_changes": reservationChanges,
  "0012_blocks": blocks,
  "0013_inventory": inventory,
  "0014_bucket_take": bucketTake,
  "0015_held_overbooking": heldOverbooking,
  "0016_bucket_settle": bucketSettle,
  "0017_rate_plan_nights": ratePlanNights
}
