import { runScript } from "./script.js"

// The booking flow (holds, confirm, cancel, expiry):
// - `reservations.cancellation_policy`: the tiers in force when the stay was held (the terms the quote showed),
//   so a later policy change or a deleted plan does not change what a cancel owes;
// - `reservation_add_ons`: the add-ons booked with a hold, with their validated `modifier_values`;
// - one loyalty earn per reservation, whatever the concurrency (the confirm also locks the reservation row);
// - indexes for the confirm's and cancel's lookups by reservation.
export default runScript(`
ALTER TABLE reservations ADD COLUMN cancellation_policy jsonb;

CREATE TABLE reservation_add_ons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reservation_id uuid NOT NULL REFERENCES reservations(id),
  position integer NOT NULL,
  service_id uuid NOT NULL REFERENCES services(id),
  quantity integer NOT NULL,
  modifier_values jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX reservation_add_ons_reservation ON reservation_add_ons (reservation_id, position);

CREATE UNIQUE INDEX loyalty_ledger_one_earn ON loyalty_ledger (reservation_id) WHERE kind = 'earn';
CREATE INDEX loyalty_ledger_reservation ON loyalty_ledger (reservation_id) WHERE reservation_id IS NOT NULL;
CREATE INDEX payments_reservation ON payments (reservation_id);
CREATE INDEX confirm_audit_reservation ON confirm_audit (reservation_id);
`)
