import type { PoolSettings } from "../../src/database/PoolSettings.js"

/** A pool of one connection with bounds no test statement reaches: for a test about connecting, not about bounds. */
export const onePlainConnection: PoolSettings = {
  size: 1,
  poolTimeoutMs: 3_000,
  statementTimeoutMs: 2_000,
  lockTimeoutMs: 1_000,
  idleInTransactionTimeoutMs: 10_000,
  preparedStatements: true
}
