import { TestDatabase } from "../../../persistence/test/utils/TestDatabase.js"

/**
 * A fresh migrated database for one test file on the global setup's server: its `SqlClient` and its
 * `DatabaseUrl` (for tests that start other processes on it).
 */
export const TestSqlLive = TestDatabase.layer()
