import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { EmbeddedPostgresError, reasonOf } from "./EmbeddedPostgresError.js"
import { canEnter, makeEnterableDir, type Runner } from "./Runner.js"

/**
 * Where the cluster of `dataDir` lives: `link` is `<dataDir>/postgres`, the path every `hotel` process looks
 * at; `dir` is where the files are. They are the same unless the runner cannot enter `dataDir` (a root
 * process's `postgres` user and a checkout in an owner-only directory): then the files live under
 * `<cacheDir>/clusters/` and `link` is a symbolic link to them.
 */
export interface ClusterDir {
  readonly link: string
  readonly dir: string
}

const relocated = (dataDir: string, cacheDir: string): string =>
  path.join(cacheDir, "clusters", createHash("sha256").update(dataDir).digest("hex").slice(0, 16))

const place = (runner: Runner, dataDir: string, cacheDir: string): ClusterDir => {
  makeEnterableDir(dataDir)
  const link = path.join(dataDir, "postgres")
  const existing = fs.lstatSync(link, { throwIfNoEntry: false })
  if (existing?.isSymbolicLink() === true) return { link, dir: path.resolve(dataDir, fs.readlinkSync(link)) }
  if (existing !== undefined || canEnter(runner, dataDir)) return { link, dir: link }
  const dir = relocated(dataDir, cacheDir)
  fs.symlinkSync(dir, link)
  return { link, dir }
}

/** The cluster's directory, made (empty, owned by the runner) when missing; its parent is enterable. */
export const clusterDirFor = (
  runner: Runner,
  dataDir: string,
  cacheDir: string
): Effect.Effect<ClusterDir, EmbeddedPostgresError> =>
  Effect.try({
    try: () => {
      const cluster = place(runner, path.resolve(dataDir), cacheDir)
      if (!canEnter(runner, path.dirname(cluster.dir))) {
        throw new Error(`the \`${runner.name}\` user PostgreSQL runs as cannot enter ${path.dirname(cluster.dir)}`)
      }
      if (!fs.existsSync(cluster.dir)) {
        makeEnterableDir(path.dirname(cluster.dir))
        fs.mkdirSync(cluster.dir, { mode: 0o700 })
        if (runner.ids !== undefined) fs.chownSync(cluster.dir, runner.ids.uid, runner.ids.gid)
      }
      return cluster
    },
    catch: (error) =>
      new EmbeddedPostgresError({ step: `preparing the data directory ${dataDir}`, reason: reasonOf(error) })
  })
