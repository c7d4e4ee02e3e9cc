import * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"

// `api_keys.rate_limit`: requests per minute for this key alone, set only by the operator who creates the
// key (`hotel key create --rate-limit N`, e.g. for a load test). NULL is the contract's 600 a minute, so every
// existing and every ordinary key keeps the default.
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE api_keys ADD COLUMN rate_limit integer CHECK (rate_limit > 0);
`)
)
