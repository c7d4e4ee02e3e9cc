import { runScript } from "./script.js"

// `api_keys.rate_limit`: requests per minute for this key alone, set only by the operator who creates the
// key (`hotel key create --rate-limit N`, e.g. for a load test). NULL is the contract's 600 a minute, so every
// existing and every ordinary key keeps the default.
export default runScript(`
ALTER TABLE api_keys ADD COLUMN rate_limit integer CHECK (rate_limit > 0);
`)
