import { runScript } from "./script.js"

// Channel ARI (`POST /ari`): a plan's per-night layer above its seasonal intervals. A row holds a plan's
// overrides on one night; a NULL field has no override there (the night falls back to the interval, then to the
// plan), and a row whose every field is NULL is deleted by the writer that cleared the last one. `price` is set
// only on plans that derive from none (a derived plan follows its parent's night price). The primary key leads
// with the plan, so the pricing snapshot reads one plan's nights of a stay by an index range.
export default runScript(`
CREATE TABLE rate_plan_nights (
  rate_plan_id uuid NOT NULL REFERENCES rate_plans(id),
  night date NOT NULL,
  price numeric CHECK (price >= 0),
  min_stay integer CHECK (min_stay BETWEEN 1 AND 30),
  max_stay integer CHECK (max_stay BETWEEN 1 AND 30),
  closed_to_arrival boolean,
  closed_to_departure boolean,
  stop_sell boolean,
  PRIMARY KEY (rate_plan_id, night)
);
`)
