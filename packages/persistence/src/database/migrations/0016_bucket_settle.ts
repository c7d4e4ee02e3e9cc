import { runScript } from "./script.js"

// `rate_limit_settle`: the debit of the tokens a process let through from its outage lease while no primary
// answered (`domain/platform/OutageLease.ts`). The bucket is first brought to `p_now` by `rate_limit_take`
// itself (a take of nothing: the one definition of the refill, and a bucket never seen is created full), then
// `p_spent` is taken from it, down to empty: what was let through beyond an empty bucket is the overshoot the
// lease allows, not a debt carried on. Answers the tokens left.
export default runScript(`
CREATE FUNCTION rate_limit_settle(
  p_bucket text,
  p_capacity double precision,
  p_refill_per_second double precision,
  p_spent double precision,
  p_now timestamptz
) RETURNS double precision
LANGUAGE plpgsql AS $$
DECLARE
  v_left double precision;
BEGIN
  PERFORM rate_limit_take(p_bucket, p_capacity, p_refill_per_second, 0, 0, p_now);
  UPDATE rate_limit_buckets SET tokens = GREATEST(0, tokens - p_spent)
  WHERE bucket = p_bucket
  RETURNING tokens INTO v_left;
  RETURN v_left;
END
$$;
`)
