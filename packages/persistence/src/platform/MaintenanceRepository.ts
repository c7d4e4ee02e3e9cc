import * as SqlClient from "effect/sql/SqlClient"
import { InvalidParameters } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { withSpan } from "../database/Span.js"
import { orOnStandby } from "../database/StandbyReads.js"

/** The maintenance window every process sees (one row, `maintenance_windows`). */
export interface MaintenanceWindow {
  readonly active: boolean
  readonly startedAt: Date | null
  /** When the operator expects it to end; `null` when not said. */
  readonly estimatedEnd: Date | null
}

interface WindowRow {
  readonly active: boolean
  readonly started_at: Date | null
  readonly estimated_end: Date | null
}

const fromRow = (row: WindowRow | undefined): MaintenanceWindow =>
  row === undefined
    ? { active: false, startedAt: null, estimatedEnd: null }
    : { active: row.active, startedAt: row.started_at, estimatedEnd: row.estimated_end }

/** The window as the admin command line prints it (UTC ISO timestamps). */
export const maintenanceWindowJson = (window: MaintenanceWindow) => ({
  active: window.active,
  started_at: window.startedAt === null ? null : window.startedAt.toISOString(),
  estimated_end: window.estimatedEnd === null ? null : window.estimatedEnd.toISOString()
})

export class MaintenanceRepository extends Context.Service<MaintenanceRepository>()(
  "@hotel/persistence/platform/MaintenanceRepository",
  {
    make: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      /**
       * Starts maintenance now, or updates the expected end of the window already running (which keeps its
       * start). `until` must be in the future.
       */
      const start = (until?: Date): Effect.Effect<MaintenanceWindow, InvalidParameters> =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis)
          if (until !== undefined && (Number.isNaN(until.getTime()) || until.getTime() <= now.getTime())) {
            return yield* new InvalidParameters({ message: "must be a timestamp in the future", param: "until" })
          }
          const rows = yield* sql<WindowRow>`
            INSERT INTO maintenance_windows (id, active, started_at, estimated_end)
            VALUES (1, true, ${now}, ${until ?? null})
            ON CONFLICT (id) DO UPDATE SET
              active = true,
              started_at = CASE WHEN maintenance_windows.active THEN maintenance_windows.started_at
                                ELSE EXCLUDED.started_at END,
              estimated_end = EXCLUDED.estimated_end
            RETURNING active, started_at, estimated_end`.pipe(Effect.orDie)
          return fromRow(rows[0])
        }).pipe(withSpan("MaintenanceRepository.start"))

      /** Ends maintenance (a no-op when none runs). */
      const stop = (): Effect.Effect<MaintenanceWindow> =>
        sql<WindowRow>`
          INSERT INTO maintenance_windows (id, active, started_at, estimated_end)
          VALUES (1, false, NULL, NULL)
          ON CONFLICT (id) DO UPDATE SET active = false, started_at = NULL, estimated_end = NULL
          RETURNING active, started_at, estimated_end`.pipe(
          Effect.map((rows) => fromRow(rows[0])),
          Effect.orDie,
          withSpan("MaintenanceRepository.stop")
        )

      const read = sql<WindowRow>`SELECT active, started_at, estimated_end FROM maintenance_windows WHERE id = 1`

      /**
       * The current window (inactive when none was ever set). Every request asks for it (through a cache), so
       * while no primary answers it is read on the standby (`orOnStandby`): the reads a standby serves go on.
       */
      const current = (): Effect.Effect<MaintenanceWindow> =>
        read.pipe(
          orOnStandby(read),
          Effect.map((rows) => fromRow(rows[0])),
          Effect.orDie,
          withSpan("MaintenanceRepository.current")
        )

      return { start, stop, current } as const
    })
  }
) {
  static readonly layer = Layer.effect(this, this.make)
}
