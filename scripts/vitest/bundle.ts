import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import type {} from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** The compiled `hotel` entry point (`npm run build`'s output), built once for the run. */
    bundle: string
  }
}

const root = path.resolve(import.meta.dirname, "../..")

/**
 * The tests that start other processes (`hotel serve`, admin commands) run what ships: the bundle of
 * `npm run build`, built once per run into a folder of its own under `node_modules/.cache` (so it resolves the
 * packages it leaves external, and never races a developer's `dist/`), removed at the end.
 */
export default async function setup(project: TestProject) {
  const cache = path.join(root, "node_modules", ".cache")
  fs.mkdirSync(cache, { recursive: true })
  const outdir = fs.mkdtempSync(path.join(cache, "hotel-bundle-"))
  await new Promise<void>((resolve, reject) => {
    execFile(
      path.join(root, "node_modules", ".bin", "tsx"),
      [path.join(root, "scripts", "bundle", "build.ts"), "--outdir", outdir],
      { cwd: root },
      (error, _stdout, stderr) => (error === null ? resolve() : reject(new Error(`npm run build failed:\n${stderr}`)))
    )
  })
  project.provide("bundle", path.join(outdir, "hotel.js"))
  return () => fs.rmSync(outdir, { recursive: true, force: true })
}
