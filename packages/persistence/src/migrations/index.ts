import initial from "./0001_initial.js"

// Keys must match `^(\d+)_(.+)$` or the migrator skips them silently.
export const migrations = {
  "0001_initial": initial
}
