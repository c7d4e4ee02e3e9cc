import initial from "./0001_initial.js"
import booking from "./0300_booking.js"
import stays from "./0400_stays.js"
import platformGuarantees from "./0700_platform_guarantees.js"

// Keys must match `^(\d+)_(.+)$` or the migrator skips them silently.
export const migrations = {
  "0001_initial": initial,
  "0300_booking": booking,
  "0400_stays": stays,
  "0700_platform_guarantees": platformGuarantees
}
