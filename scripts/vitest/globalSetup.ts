import { spawn } from "node:child_process"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import type {} from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** A Postgres server the tests may create databases on (one per test file). */
    serverUrl: string
  }
}

const root = path.resolve(import.meta.dirname, "../..")

/**
 * `DATABASE_URL` when set (each test file then creates its own database on that server); otherwise an
 * embedded PostgreSQL, run by a child process (`embeddedServer.ts`) for the duration of the run.
 */
export default async function setup(project: TestProject) {
  const given = process.env["DATABASE_URL"]
  if (given !== undefined && given.length > 0) {
    project.provide("serverUrl", given)
    return
  }
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(import.meta.dirname, "embeddedServer.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"]
  })
  const url = await new Promise<string>((resolve) => {
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8")
      const line = out.split("\n")[0]
      if (out.includes("\n") && line !== undefined) resolve((JSON.parse(line) as { url: string }).url)
    })
    // The child has printed why on stderr (one paragraph naming the cause and DATABASE_URL); a thrown error
    // would only add vitest's stack trace under it. No test has started yet, so there is nothing to stop.
    child.once("exit", () => process.exit(1))
  })
  child.removeAllListeners("exit")
  project.provide("serverUrl", url)
  return () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.stdin.end()
    })
}
