import { runScript } from "./script.js"

// Inventory controls:
// - `out_of_order`: a room out of service for the nights from `start_date` up to the night before `end_date`.
//   Periods of one room never share a night (checked under the room type's lock by the writer).
// - `inventory_nights`: a room type's controls on one night: `sell_limit` (null: none) and `overbooking`
//   (0: none). A night without a row has neither.
// - `night_capacity`: THE capacity rule, min(rooms in service, sell limit when set) + overbooking; the inventory
//   statement answers it with a night's figures, and nothing else computes it (persistence test
//   `inventory/capacity.test.ts`).
export default runScript(`
CREATE TABLE out_of_order (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  room_id uuid NOT NULL REFERENCES rooms(id),
  start_date date NOT NULL,
  end_date date NOT NULL CHECK (end_date > start_date),
  reason text,
  created_at timestamptz NOT NULL
);
CREATE INDEX out_of_order_room ON out_of_order (room_id, start_date);
CREATE INDEX out_of_order_property ON out_of_order (property_id, start_date);

CREATE TABLE inventory_nights (
  room_type_id uuid NOT NULL REFERENCES room_types(id),
  night date NOT NULL,
  sell_limit integer CHECK (sell_limit >= 0),
  overbooking integer NOT NULL DEFAULT 0 CHECK (overbooking >= 0),
  PRIMARY KEY (room_type_id, night)
);

CREATE FUNCTION night_capacity(in_service integer, sell_limit integer, overbooking integer)
RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT LEAST(GREATEST(in_service, 0), COALESCE(sell_limit, GREATEST(in_service, 0))) + COALESCE(overbooking, 0)
$$;
`)
