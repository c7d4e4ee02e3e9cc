import { runScript } from "./script.js"

// Events and webhooks.
//
// - `events`: the outbox. A write inserts its events in its own transaction, without a sequence. The sequence
//   is given at COMMIT by a deferred constraint trigger that bumps the property's row in
//   `property_event_sequences`. The row lock is therefore always the last lock a write transaction takes and
//   is held only for the instant of its commit: two transactions of one property commit their events one
//   after the other, and a number is visible only once every smaller number of that property is visible (the
//   next transaction cannot take the row before the previous one's commit is visible). Readers never see a
//   gap that fills later.
// - `webhook_endpoints`: soft-deleted, so that deliveries keep their history.
// - `webhook_deliveries`: one job per (endpoint, event) send, claimed by workers with SKIP LOCKED;
//   `webhook_delivery_attempts`: one row per attempt, what `GET .../deliveries` lists.
export default runScript(`
CREATE TABLE property_event_sequences (
  property_id uuid PRIMARY KEY REFERENCES properties(id),
  last_sequence bigint NOT NULL
);

CREATE TABLE events (
  id text PRIMARY KEY,
  property_id uuid NOT NULL REFERENCES properties(id),
  sequence bigint,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX events_property_sequence_idx ON events (property_id, sequence);
CREATE INDEX events_created_at_idx ON events (created_at);

CREATE FUNCTION number_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_sequence bigint;
BEGIN
  INSERT INTO property_event_sequences AS s (property_id, last_sequence) VALUES (NEW.property_id, 1)
  ON CONFLICT (property_id) DO UPDATE SET last_sequence = s.last_sequence + 1
  RETURNING last_sequence INTO next_sequence;
  UPDATE events SET sequence = next_sequence WHERE id = NEW.id;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER events_number_at_commit AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION number_event();

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  property_id uuid NOT NULL REFERENCES properties(id),
  url text NOT NULL,
  event_types text[] NOT NULL,
  description text,
  is_active boolean NOT NULL DEFAULT true,
  secret text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX webhook_endpoints_property_idx ON webhook_endpoints (property_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
  event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  first_attempt_at timestamptz,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE webhook_delivery_attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id),
  event_id text NOT NULL,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  response_status integer,
  error text,
  attempted_at timestamptz NOT NULL,
  next_attempt_at timestamptz
);
CREATE INDEX webhook_delivery_attempts_endpoint_idx ON webhook_delivery_attempts (endpoint_id, attempted_at DESC, id DESC);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id);
`)
