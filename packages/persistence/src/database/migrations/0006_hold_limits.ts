import { runScript } from "./script.js"

// Caps on live holds:
// - `api_keys.max_live_holds`: the cap `hotel key create --max-live-holds N` sets (null: no cap of the key's own);
// - live holds are counted per guest and per key inside the hold transaction; these partial indexes keep both
//   counts to the tentative rows of that guest or key.
export default runScript(`
ALTER TABLE api_keys ADD COLUMN max_live_holds integer CHECK (max_live_holds > 0);
CREATE INDEX reservations_tentative_by_guest ON reservations (guest_id) WHERE status = 'tentative';
CREATE INDEX reservations_tentative_by_key ON reservations (api_key_id) WHERE status = 'tentative';
`)
