import { runScript } from "./script.js"

// Blocks: rooms of one room type set aside over a range of nights for a group or an agent.
// - `blocks`: the block; `status` is what was last written (`tentative`, `definite`, `released`, `cancelled`);
//   a read says `released` too once every night's release instant has passed. `released_at` is the instant of
//   a manual release. `announced_until` is how far (exclusive night) the release worker has written the
//   automatic release down (its events), so each release is announced once.
// - `block_nights`: the units set aside on each night of the range (0 allowed).
// - `reservations.block_id`: the block a hold picked up from. What a block has picked up on a night is never
//   stored: it is the count of its live pickups covering the night, so a cancelled or lapsed pickup returns its
//   unit by itself, from the instant it lapses.
// - `block_night_released`: THE rule of when a night's remaining units are free again, used by every query
//   that counts inventory or reads a block: a manual release, `release_at`, or the property's local midnight
//   starting the day `release_days_before` days before the night. Nights release in date order, so the released
//   nights of a block are always a prefix of its range.
export default runScript(`
CREATE TABLE blocks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  room_type_id uuid NOT NULL REFERENCES room_types(id),
  rate_plan_id uuid NOT NULL REFERENCES rate_plans(id),
  name text NOT NULL,
  status text NOT NULL CHECK (status IN ('tentative', 'definite', 'released', 'cancelled')),
  start_date date NOT NULL,
  end_date date NOT NULL CHECK (end_date > start_date),
  price numeric,
  release_at timestamptz,
  release_days_before integer CHECK (release_days_before BETWEEN 0 AND 365),
  notes text,
  released_at timestamptz,
  announced_until date NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX blocks_property ON blocks (property_id, start_date, created_at);
CREATE INDEX blocks_inventory ON blocks (room_type_id, start_date) WHERE status = 'definite';
CREATE INDEX blocks_pending_release ON blocks (id) WHERE status IN ('tentative', 'definite') AND announced_until < end_date;

CREATE TABLE block_nights (
  block_id uuid NOT NULL REFERENCES blocks(id),
  night date NOT NULL,
  units integer NOT NULL CHECK (units >= 0),
  PRIMARY KEY (block_id, night)
);

ALTER TABLE reservations ADD COLUMN block_id uuid REFERENCES blocks(id);
CREATE INDEX reservations_by_block ON reservations (block_id, check_in_date) WHERE block_id IS NOT NULL;

CREATE FUNCTION block_night_released(
  status text, released_at timestamptz, release_at timestamptz, release_days_before integer, night date,
  tz text, at timestamptz
) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT (status = 'released' AND released_at IS NOT NULL AND released_at <= at)
      OR (release_at IS NOT NULL AND release_at <= at)
      OR (release_days_before IS NOT NULL
          AND ((night - release_days_before)::timestamp AT TIME ZONE tz) <= at)
$$;
`)
