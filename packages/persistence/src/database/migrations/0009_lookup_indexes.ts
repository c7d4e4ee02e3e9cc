import { runScript } from "./script.js"

// Lookups that read every reservation (or room) of the database without an index of their own, so their cost
// grew with the history of every property:
// - a promo code's redemptions, counted by every quote and hold of a plan that has codes;
// - `GET /reservations?guest_id=`, a guest's stays in check-in order (the list's own order, so a page is read
//   straight from the index);
// - a room type's rooms in service, counted by every availability count.
export default runScript(`
CREATE INDEX reservations_promo_code ON reservations (promo_code_id) WHERE promo_code_id IS NOT NULL;
CREATE INDEX reservations_by_guest ON reservations (guest_id, check_in_date, created_at, id);
CREATE INDEX rooms_room_type ON rooms (room_type_id);
`)
