import { runScript } from "./script.js"

// Several rooms in one booking (`POST /bookings`):
// - `bookings`: one row per booking, the guest and the stay its rooms share, and the currency every room
//   prices in. Its rooms are reservations with `booking_id` set (null for a hold made by `POST /holds`), listed
//   in the order of the request's `rooms` (`booking_position`).
// - A booking is paid as one unit: every folio of it records its own total under the booking's one
//   `payment_reference`. A reference still belongs to one payer (a reservation, or a booking): of the rows
//   that carry it, only the one that claims it (`claims_reference`, the booking's first share, or a lone
//   reservation's payment) is unique, so the unique index keeps its name and its meaning for every other writer.
export default runScript(`
CREATE TABLE bookings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  guest_id uuid NOT NULL REFERENCES guests(id),
  check_in_date date NOT NULL,
  check_out_date date NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX bookings_property ON bookings (property_id, created_at);

ALTER TABLE reservations ADD COLUMN booking_id uuid REFERENCES bookings(id);
ALTER TABLE reservations ADD COLUMN booking_position integer;
CREATE INDEX reservations_by_booking ON reservations (booking_id, booking_position) WHERE booking_id IS NOT NULL;

ALTER TABLE payments ADD COLUMN booking_id uuid REFERENCES bookings(id);
ALTER TABLE payments ADD COLUMN claims_reference boolean NOT NULL DEFAULT true;
ALTER TABLE payments DROP CONSTRAINT payments_property_id_reference_key;
CREATE UNIQUE INDEX payments_property_id_reference_key ON payments (property_id, reference) WHERE claims_reference;
CREATE INDEX payments_reference ON payments (property_id, reference);
`)
