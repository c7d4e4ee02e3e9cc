import { runScript } from "./script.js"

// Platform guarantees shared by every process (idempotency, rate limits):
// - `idempotency_keys.claim_token`: the claim a process holds, so that only its owner completes or releases
//   it (a claim taken over after 60 seconds is no longer the crashed owner's);
// - `idempotency_keys.response_content_type`: replayed with the stored status and body;
// - an index for the purge of expired keys;
// - `rate_limit_buckets.allowed`: whether the last UPSERT took a token, returned by the same statement.
export default runScript(`
ALTER TABLE idempotency_keys ADD COLUMN claim_token text;
ALTER TABLE idempotency_keys ADD COLUMN response_content_type text;
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
ALTER TABLE rate_limit_buckets ADD COLUMN allowed boolean NOT NULL DEFAULT true;
`)
