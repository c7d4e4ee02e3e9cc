// When a standby may answer a read: the rule, pure, and the statement that measures what it needs.

/** A measurement of the standby's replay lag; `lagMs` null when it could not be measured (unreachable). */
export interface LagReading {
  /** When it was measured (epoch milliseconds). */
  readonly at: number
  readonly lagMs: number | null
}

/**
 * Whether the standby may answer at `now`: it was measured, and its lag then plus the age of the measurement
 * (a lag that may have grown since, unseen) is within `maxLagMs`. Before the first measurement, after a failed
 * one, or when measurements stop coming, the primary answers.
 */
export const standbyUsable = (reading: LagReading | undefined, now: number, maxLagMs: number): boolean =>
  reading !== undefined && reading.lagMs !== null && reading.lagMs + Math.max(0, now - reading.at) <= maxLagMs

/** How often the lag is measured: often enough that a reading is never the larger part of the bound. */
export const measureEveryMs = (maxLagMs: number): number => Math.max(100, Math.min(1_000, Math.floor(maxLagMs / 4)))

/**
 * The lag as the standby knows it, in milliseconds: none on a primary, none when everything received is
 * replayed (an idle primary writes nothing, so the last replayed transaction's age would be no lag at all),
 * else the age of the last replayed transaction. A standby cut off from its primary has received nothing
 * more and so shows no lag: its data is as of the moment it was cut off (see docs/operations.md).
 */
export const lagStatement = `SELECT CASE
    WHEN NOT pg_catalog.pg_is_in_recovery() THEN 0::float8
    WHEN pg_catalog.pg_last_wal_receive_lsn() = pg_catalog.pg_last_wal_replay_lsn() THEN 0::float8
    ELSE (EXTRACT(EPOCH FROM pg_catalog.clock_timestamp() - pg_catalog.pg_last_xact_replay_timestamp()) * 1000)::float8
  END AS lag_ms`
