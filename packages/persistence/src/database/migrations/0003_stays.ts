import { runScript } from "./script.js"

// After the booking (charges, credits, loyalty redemption, check-in/out, no-show):
// - when each stay transition happened;
// - a credit line records the entitlement it consumed and the charge line it pays for (audit);
// - a room is never assigned twice for overlapping nights: besides the room type lock check-in takes, the
//   database refuses two confirmed or checked-in accommodations on one room whose nights overlap
//   (`[check_in_date, check_out_date)` ranges; back-to-back stays do not overlap);
// - credits of a reservation are looked up by category and currency.
export default runScript(`
ALTER TABLE reservations ADD COLUMN checked_in_at timestamptz;
ALTER TABLE reservations ADD COLUMN checked_out_at timestamptz;
ALTER TABLE reservations ADD COLUMN no_show_at timestamptz;

ALTER TABLE folio_lines ADD COLUMN entitlement_id uuid REFERENCES entitlements(id);
ALTER TABLE folio_lines ADD COLUMN applies_to_line_id uuid REFERENCES folio_lines(id);

CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE accommodations ADD CONSTRAINT accommodations_room_not_doubled
  EXCLUDE USING gist (room_id WITH =, daterange(check_in_date, check_out_date) WITH &&)
  WHERE (room_id IS NOT NULL AND status IN ('confirmed', 'checked_in'));

CREATE INDEX entitlements_credits ON entitlements (reservation_id, revenue_category, currency, position)
  WHERE inclusion_kind = 'credit';
`)
