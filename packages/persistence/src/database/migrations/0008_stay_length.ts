import { runScript } from "./script.js"

// A reservation spans 1 to 30 nights (`maxStayNights`; holds refuse anything else with 400 `check_out`).
// The database holds the bound too, because availability relies on it: a stay covering a night arrived at
// most 30 days before it, so the inventory count reads the index entries of the 30 days before the first
// night only, instead of every active reservation of the room type arriving before the last night.
export default runScript(`
ALTER TABLE reservations ADD CONSTRAINT reservations_stay_length
  CHECK (check_out_date > check_in_date AND check_out_date - check_in_date <= 30);
`)
