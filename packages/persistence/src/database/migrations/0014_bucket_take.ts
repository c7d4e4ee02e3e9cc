import { runScript } from "./script.js"

// `rate_limit_take`: THE token-bucket step in SQL, the twin of the domain's `TokenBucket.take`, so that the
// shared limiter and the key lookup (which takes a request's token in its own statement) run one definition.
// It refills the bucket at `p_now` (the caller's `Clock`, never SQL `now()`), hands back `p_give_back` (a
// lease's unspent tokens) like a refill, capped at the capacity, then takes `p_cost` when that many are
// there. A refused take takes nothing. Concurrent calls serialise on the bucket's row. A NULL `p_cost` does
// nothing and returns no row: the key lookup asks for a token only for a usable key decided request by request.
// plpgsql, not SQL: a plpgsql function keeps its plan for the session, a SQL one would plan its INSERT per call.
export default runScript(`
CREATE FUNCTION rate_limit_take(
  p_bucket text,
  p_capacity double precision,
  p_refill_per_second double precision,
  p_cost double precision,
  p_give_back double precision,
  p_now timestamptz
) RETURNS TABLE (tokens_left double precision, taken boolean)
LANGUAGE plpgsql AS $$
BEGIN
  IF p_cost IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
  INSERT INTO rate_limit_buckets AS b (bucket, tokens, updated_at, allowed)
  VALUES (p_bucket, GREATEST(0, p_capacity - p_cost), p_now, p_capacity >= p_cost)
  ON CONFLICT (bucket) DO UPDATE SET (tokens, allowed, updated_at) = (
    SELECT CASE WHEN r.refilled + 1e-9 >= p_cost THEN GREATEST(0, r.refilled - p_cost) ELSE r.refilled END,
           r.refilled + 1e-9 >= p_cost,
           GREATEST(b.updated_at, EXCLUDED.updated_at)
    FROM (SELECT LEAST(
      p_capacity,
      b.tokens + p_give_back
        + GREATEST(0, EXTRACT(EPOCH FROM (EXCLUDED.updated_at - b.updated_at)))::double precision * p_refill_per_second
    ) AS refilled) AS r
  )
  RETURNING b.tokens, b.allowed;
END
$$;
`)
