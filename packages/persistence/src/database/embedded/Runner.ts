import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedPostgresError, reasonOf } from "./EmbeddedPostgresError.js"

/**
 * The user PostgreSQL runs as. PostgreSQL refuses to run as root, so a root process runs it as `postgres`
 * (`ids` set: the child processes switch to them); anyone else runs it as themselves.
 */
export interface Runner {
  readonly name: string
  readonly ids?: { readonly uid: number; readonly gid: number }
}

const POSTGRES = "postgres"

const run = (command: string, args: ReadonlyArray<string>) =>
  Effect.callback<string, Error>((resume) => {
    execFile(command, args, (error, stdout, stderr) =>
      resume(error === null ? Effect.succeed(stdout.trim()) : Effect.fail(new Error(stderr.trim() || error.message))))
  })

const idsOf = (name: string) =>
  Effect.all({
    uid: Effect.map(run("id", ["-u", name]), Number),
    gid: Effect.map(run("id", ["-g", name]), Number)
  })

/** `groupadd -f` succeeds when the group exists; the user gets no home and no login. */
const createPostgresUser = Effect.andThen(
  run("groupadd", ["-f", POSTGRES]),
  run("useradd", ["--system", "--no-create-home", "-g", POSTGRES, POSTGRES])
)

/** Who runs PostgreSQL here; as root, the `postgres` user, created when missing. */
export const resolveRunner: Effect.Effect<Runner, EmbeddedPostgresError> = Effect.suspend(() => {
  if (process.getuid?.() !== 0) return Effect.succeed({ name: os.userInfo().username })
  return idsOf(POSTGRES).pipe(
    Effect.catch(() => Effect.andThen(createPostgresUser, idsOf(POSTGRES))),
    Effect.map((ids): Runner => ({ name: POSTGRES, ids })),
    Effect.mapError((error) =>
      new EmbeddedPostgresError({
        step: "creating the `postgres` user (PostgreSQL does not run as root)",
        reason: reasonOf(error)
      })
    )
  )
})

/** What decides whether a user may enter a directory (ACLs aside). */
export interface Ownership {
  readonly uid: number
  readonly gid: number
  readonly mode: number
}

/**
 * Whether a user with these ids may search (enter) every one of these directories. Their supplementary
 * groups do not count: Node drops them when it switches to the user.
 */
export const maySearchAll = (
  ids: { readonly uid: number; readonly gid: number },
  directories: ReadonlyArray<Ownership>
): boolean =>
  directories.every((dir) => {
    const bit = dir.uid === ids.uid ? 0o100 : dir.gid === ids.gid ? 0o010 : 0o001
    return (dir.mode & bit) !== 0
  })

/** `dir` and every directory above it that exists. */
const ownershipDownTo = (dir: string): ReadonlyArray<Ownership> => {
  const found: Array<Ownership> = []
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const stat = fs.statSync(current, { throwIfNoEntry: false })
    if (stat !== undefined) found.push(stat)
    if (path.dirname(current) === current) return found
  }
}

/**
 * Whether the runner can enter `dir` (every directory from `/` down to it searchable). Someone running
 * PostgreSQL as themselves can; the `postgres` user of a root process often cannot (a checkout under `/root`
 * or in a `mktemp -d` directory).
 */
export const canEnter = (runner: Runner, dir: string): boolean =>
  runner.ids === undefined || maySearchAll(runner.ids, ownershipDownTo(dir))

/** Hands `target` to the runner (when it is another user). */
export const giveTo = (runner: Runner, target: string): void => {
  if (runner.ids !== undefined) fs.chownSync(target, runner.ids.uid, runner.ids.gid)
}

/** `mkdir -p dir`, every directory it creates enterable by everyone whatever the umask. */
export const makeEnterableDir = (dir: string): void => {
  const first = fs.mkdirSync(dir, { recursive: true })
  if (first === undefined) return
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    fs.chmodSync(current, 0o755)
    if (current === path.resolve(first) || path.dirname(current) === current) return
  }
}
