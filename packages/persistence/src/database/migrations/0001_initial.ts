import { runScript } from "./script.js"

// The whole model in one place: catalogue, rates, access, guests, reservations, folios, platform state.
// Money is NUMERIC (exact); dates are DATE; instants TIMESTAMPTZ.
export default runScript(`
CREATE TABLE properties (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  timezone text NOT NULL,
  base_currency text NOT NULL,
  loyalty_points_per_usd integer NOT NULL DEFAULT 10,
  cancellation_policy jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE property_currencies (
  property_id uuid NOT NULL REFERENCES properties(id),
  currency text NOT NULL,
  rate_to_base numeric NOT NULL,
  PRIMARY KEY (property_id, currency)
);

CREATE TABLE age_brackets (
  property_id uuid NOT NULL REFERENCES properties(id),
  max_age integer NOT NULL,
  extra_guest_percent numeric NOT NULL,
  PRIMARY KEY (property_id, max_age)
);

CREATE TABLE taxes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  code text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL,
  value numeric NOT NULL,
  applies_to text,
  max_nights integer,
  exempt_under_age integer,
  position integer NOT NULL DEFAULT 0,
  UNIQUE (property_id, code)
);

CREATE TABLE room_types (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  code text NOT NULL,
  name text NOT NULL,
  description text,
  base_occupancy integer NOT NULL,
  max_occupancy integer NOT NULL,
  bed_configs text[] NOT NULL DEFAULT '{}',
  position integer NOT NULL DEFAULT 0,
  UNIQUE (property_id, code)
);

CREATE TABLE rooms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  room_type_id uuid NOT NULL REFERENCES room_types(id),
  number text NOT NULL,
  retired boolean NOT NULL DEFAULT false,
  UNIQUE (property_id, number)
);

CREATE TABLE services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  code text NOT NULL,
  name text NOT NULL,
  description text,
  price numeric NOT NULL,
  pricing_unit text NOT NULL,
  revenue_category text NOT NULL,
  guest_bookable boolean NOT NULL DEFAULT true,
  tax jsonb,
  modifiers jsonb NOT NULL DEFAULT '[]',
  position integer NOT NULL DEFAULT 0,
  UNIQUE (property_id, code)
);

CREATE TABLE rate_plans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  code text,
  room_type_id uuid NOT NULL REFERENCES room_types(id),
  name text NOT NULL,
  public_name text,
  description text,
  image_url text,
  base_price numeric NOT NULL,
  currency text NOT NULL,
  extra_guest_charge numeric NOT NULL DEFAULT 0,
  single_guest_discount numeric NOT NULL DEFAULT 0,
  single_guest_discount_type text NOT NULL DEFAULT 'fixed',
  min_los integer,
  max_los integer,
  booking_window_start date,
  booking_window_end date,
  stay_window_start date,
  stay_window_end date,
  active_for_booking_engine boolean NOT NULL DEFAULT false,
  active_for_channels boolean NOT NULL DEFAULT false,
  kind text NOT NULL DEFAULT 'standard',
  derived_from_id uuid REFERENCES rate_plans(id),
  derivation_type text,
  derivation_value numeric,
  is_active boolean NOT NULL DEFAULT true,
  is_default boolean NOT NULL DEFAULT false,
  requires_promo_code boolean NOT NULL DEFAULT false,
  cancellation_policy jsonb,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (property_id, code)
);
CREATE INDEX rate_plans_property ON rate_plans (property_id) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX rate_plans_one_default ON rate_plans (property_id) WHERE is_default AND deleted_at IS NULL;

CREATE TABLE rate_plan_intervals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  rate_plan_id uuid NOT NULL REFERENCES rate_plans(id),
  name text NOT NULL,
  start_date date NOT NULL,
  end_date date NOT NULL,
  price_mon numeric, price_tue numeric, price_wed numeric, price_thu numeric,
  price_fri numeric, price_sat numeric, price_sun numeric,
  min_stay integer,
  max_stay integer,
  closed_to_arrival boolean NOT NULL DEFAULT false,
  closed_to_departure boolean NOT NULL DEFAULT false,
  stop_sell boolean NOT NULL DEFAULT false,
  extra_guest_charge numeric NOT NULL DEFAULT 0,
  single_guest_discount numeric NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (start_date < end_date)
);
CREATE INDEX rate_plan_intervals_plan ON rate_plan_intervals (rate_plan_id, start_date);

CREATE TABLE rate_plan_inclusions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  rate_plan_id uuid NOT NULL REFERENCES rate_plans(id),
  position integer NOT NULL,
  label text NOT NULL,
  allocated_amount numeric NOT NULL,
  frequency text NOT NULL,
  inclusion_kind text NOT NULL DEFAULT 'perk',
  revenue_category text NOT NULL,
  service_item_id uuid,
  currency text NOT NULL,
  included_quantity integer NOT NULL DEFAULT 1
);
CREATE INDEX rate_plan_inclusions_plan ON rate_plan_inclusions (rate_plan_id, position);

CREATE TABLE promo_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  rate_plan_id uuid NOT NULL REFERENCES rate_plans(id),
  code text NOT NULL,
  valid_from date,
  valid_to date,
  max_redemptions integer,
  max_per_guest integer,
  is_active boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX promo_codes_unique_per_plan ON promo_codes (rate_plan_id, code) WHERE deleted_at IS NULL;

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  key_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  context text NOT NULL DEFAULT 'back_office',
  label text,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE guests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text,
  phone text,
  language text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE reservations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  confirmation_code text NOT NULL UNIQUE,
  guest_id uuid NOT NULL REFERENCES guests(id),
  room_type_id uuid NOT NULL REFERENCES room_types(id),
  rate_plan_id uuid NOT NULL REFERENCES rate_plans(id),
  status text NOT NULL,
  check_in_date date NOT NULL,
  check_out_date date NOT NULL,
  adults integer NOT NULL,
  children integer NOT NULL,
  child_ages integer[],
  currency text NOT NULL,
  nightly_rate numeric NOT NULL,
  total numeric NOT NULL,
  room_revenue numeric NOT NULL,
  bed_config text,
  booking_source text NOT NULL,
  special_notes text,
  promo_code_id uuid REFERENCES promo_codes(id),
  promo_code text,
  api_key_id uuid,
  hold_expires_at timestamptz,
  confirmed_at timestamptz,
  cancelled_at timestamptz,
  cancellation_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX reservations_inventory ON reservations (room_type_id, check_in_date, check_out_date)
  WHERE status IN ('tentative', 'confirmed', 'checked_in');
CREATE INDEX reservations_listing ON reservations (property_id, check_in_date, created_at, id);
CREATE INDEX reservations_expiring ON reservations (hold_expires_at) WHERE status = 'tentative';

CREATE TABLE accommodations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reservation_id uuid NOT NULL REFERENCES reservations(id),
  room_type_id uuid NOT NULL REFERENCES room_types(id),
  room_id uuid REFERENCES rooms(id),
  check_in_date date NOT NULL,
  check_out_date date NOT NULL,
  status text NOT NULL,
  nightly_rate numeric NOT NULL
);
CREATE INDEX accommodations_reservation ON accommodations (reservation_id);
CREATE INDEX accommodations_room ON accommodations (room_id) WHERE room_id IS NOT NULL;

CREATE TABLE entitlements (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reservation_id uuid NOT NULL REFERENCES reservations(id),
  label text NOT NULL,
  inclusion_kind text NOT NULL,
  revenue_category text NOT NULL,
  service_item_id uuid,
  currency text NOT NULL,
  quantity integer NOT NULL,
  allowance numeric NOT NULL,
  consumed numeric NOT NULL DEFAULT 0,
  position integer NOT NULL
);
CREATE INDEX entitlements_reservation ON entitlements (reservation_id);

CREATE TABLE folios (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  reservation_id uuid NOT NULL UNIQUE REFERENCES reservations(id),
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'open',
  created_at timestamptz NOT NULL
);

CREATE TABLE folio_lines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  folio_id uuid NOT NULL REFERENCES folios(id),
  position integer NOT NULL,
  kind text NOT NULL,
  description text NOT NULL,
  amount numeric NOT NULL,
  currency text NOT NULL,
  exchange_rate numeric,
  revenue_category text,
  service_id uuid,
  quantity integer,
  created_at timestamptz NOT NULL
);
CREATE INDEX folio_lines_folio ON folio_lines (folio_id, position);

CREATE TABLE payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  reservation_id uuid NOT NULL REFERENCES reservations(id),
  folio_id uuid NOT NULL REFERENCES folios(id),
  reference text NOT NULL,
  amount numeric NOT NULL,
  currency text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (property_id, reference)
);

CREATE TABLE confirm_audit (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reservation_id uuid NOT NULL REFERENCES reservations(id),
  api_key_id uuid,
  payment_reference text NOT NULL,
  asserted_amount numeric,
  asserted_currency text,
  request_id text,
  created_at timestamptz NOT NULL
);

CREATE TABLE loyalty_ledger (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  guest_id uuid NOT NULL REFERENCES guests(id),
  reservation_id uuid REFERENCES reservations(id),
  kind text NOT NULL,
  points integer NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX loyalty_ledger_guest ON loyalty_ledger (guest_id);

CREATE TABLE loyalty_skipped_earns (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  reservation_id uuid NOT NULL UNIQUE REFERENCES reservations(id),
  currency text NOT NULL,
  room_revenue numeric NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE idempotency_keys (
  api_key_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL,
  response_status integer,
  response_body text,
  claimed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (api_key_id, key)
);

CREATE TABLE rate_limit_buckets (
  bucket text PRIMARY KEY,
  tokens double precision NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE maintenance_windows (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  active boolean NOT NULL,
  started_at timestamptz,
  estimated_end timestamptz
);
`)
