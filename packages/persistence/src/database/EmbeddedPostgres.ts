import * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type Binaries, binariesFor } from "./embedded/Binaries.js"
import { clusterDirFor } from "./embedded/ClusterDir.js"
import { EmbeddedPostgresError, reasonOf } from "./embedded/EmbeddedPostgresError.js"
import { initdb, PASSWORD, startPostgres, stopPostgres, SUPERUSER } from "./embedded/Postgres.js"
import { type Runner, resolveRunner } from "./embedded/Runner.js"

export { describeEmbeddedFailure, EmbeddedPostgresError } from "./embedded/EmbeddedPostgresError.js"

export interface EmbeddedOptions {
  readonly dataDir: string
  readonly port: number
  readonly database: string
  /** Where binaries (and clusters) go that the PostgreSQL user cannot reach in place; see `defaultCacheDir`. */
  readonly cacheDir?: string
  /** A throw-away cluster (tests): created without syncing to disk, deleted when the scope closes. */
  readonly temporary?: boolean
  /** Extra server settings (`-c name=value`). */
  readonly settings?: Readonly<Record<string, string>>
}

export interface EmbeddedHandle {
  readonly url: string
}

/**
 * `/var/cache/hotel` for root (a place the `postgres` user can enter, unlike `/root`), else the user's cache
 * directory (`$XDG_CACHE_HOME/hotel` or `~/.cache/hotel`), which someone running PostgreSQL as themselves
 * hardly ever needs.
 */
export const defaultCacheDir = (): string =>
  process.getuid?.() === 0
    ? "/var/cache/hotel"
    : path.join(process.env["XDG_CACHE_HOME"] ?? path.join(os.homedir(), ".cache"), "hotel")

const urlFor = (port: number, database: string) =>
  `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/${database}`

/** Whether a process with this id is running (signal 0 checks without signalling). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The port of the postmaster already running on this cluster (another `hotel` process), if any. */
const runningPort = (clusterDir: string): number | undefined => {
  let lines: ReadonlyArray<string>
  try {
    lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")
  } catch {
    return undefined
  }
  const pid = Number(lines[0])
  const port = Number(lines[3])
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) && Number.isInteger(port) ? port : undefined
}

const ensureDatabase = (port: number, database: string) =>
  Effect.scoped(Effect.gen(function*() {
    const connection = yield* PgConnection.make({ url: Redacted.make(urlFor(port, "postgres")), ssl: false, prepare: false })
    const found = yield* connection.query("SELECT 1 FROM pg_database WHERE datname = $1", [database], false)
    if (found.rows.length === 0) yield* connection.query(`CREATE DATABASE "${database}"`, [], false)
  })).pipe(
    Effect.mapError((error) =>
      // PostgreSQL's or the socket's own words, not the driver's.
      new EmbeddedPostgresError({
        step: `creating the database "${database}" on port ${port}`,
        reason: reasonOf(error.reason.cause instanceof Error ? error.reason.cause : error)
      })
    )
  )

/** A cluster made by another PostgreSQL major version cannot be started by this one. */
const checkVersion = (binaries: Binaries, dir: string, port: number) =>
  Effect.suspend(() => {
    const made = fs.readFileSync(path.join(dir, "PG_VERSION"), "utf8").trim()
    if (Number.parseInt(made, 10) === binaries.major) return Effect.void
    return new EmbeddedPostgresError({
      step: `starting PostgreSQL ${binaries.major} on 127.0.0.1:${port} with the data in ${dir}`,
      reason: `database files are incompatible with server: the data directory was initialized by PostgreSQL ` +
        `version ${made}, which is not compatible with this version ${binaries.version.split("-")[0]} ` +
        `(remove ${dir} to start afresh, losing its data, or point HOTEL_DATA_DIR elsewhere)`
    })
  })

/** Starts the cluster of `options.dataDir` (creating it first when new) for the scope; answers its port. */
const startCluster = (runner: Runner, options: EmbeddedOptions, cacheDir: string) =>
  Effect.gen(function*() {
    const binaries = yield* binariesFor(runner, cacheDir)
    const cluster = yield* clusterDirFor(runner, options.dataDir, cacheDir)
    const temporary = options.temporary === true
    if (temporary) {
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          fs.rmSync(cluster.dir, { recursive: true, force: true })
          fs.rmSync(cluster.link, { recursive: true, force: true })
        })
      )
    }
    if (!fs.existsSync(path.join(cluster.dir, "PG_VERSION"))) {
      yield* initdb(runner, binaries, cluster.dir, { fast: temporary })
    }
    yield* checkVersion(binaries, cluster.dir, options.port)
    yield* Effect.acquireRelease(
      startPostgres(runner, binaries, cluster.dir, options.port, options.settings ?? {}),
      stopPostgres
    )
  })

/**
 * An embedded PostgreSQL cluster kept under `<dataDir>/postgres` so a restart keeps the data, with the
 * database `options.database` in it. When a cluster is already running there (say `npm start` while an
 * admin command runs), it is reused and left running. As root, PostgreSQL runs as the `postgres` user; what
 * that user cannot enter in place (binaries in `node_modules`, the data directory) goes under the cache
 * directory. Any failure is an `EmbeddedPostgresError` saying what failed and why.
 */
export const EmbeddedPostgres = {
  acquire: (options: EmbeddedOptions): Effect.Effect<EmbeddedHandle, EmbeddedPostgresError, Scope.Scope> =>
    Effect.gen(function*() {
      const existing = yield* Effect.sync(() => runningPort(path.join(path.resolve(options.dataDir), "postgres")))
      if (existing !== undefined) {
        yield* ensureDatabase(existing, options.database)
        return { url: urlFor(existing, options.database) }
      }
      const runner = yield* resolveRunner
      yield* startCluster(runner, options, options.cacheDir ?? defaultCacheDir())
      yield* ensureDatabase(options.port, options.database)
      return { url: urlFor(options.port, options.database) }
    })
}
