import { execFile } from "node:child_process"
import * as Effect from "effect/Effect"

export interface CommandResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end; a non-zero exit is a result, not a failure. */
export const runCommand = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }
) =>
  Effect.promise(() =>
    new Promise<CommandResult>((resolve, reject) => {
      execFile(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") return reject(error)
        resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr })
      })
    })
  )

/** `runCommand` that must succeed: its stdout, or a failure quoting what it printed. */
export const runOk = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv }
) =>
  Effect.flatMap(runCommand(command, args, options), (result) =>
    result.code === 0
      ? Effect.succeed(result.stdout)
      : Effect.die(new Error(`${command} ${args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`)))

/**
 * The environment of a process outside the workspace: without the workspace's `@hotel/source` condition
 * (`.npmrc`'s `node-options`), which would send `@hotel/*` imports to sources a packed package does not ship.
 */
export const outsideEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const { NODE_OPTIONS: _, INIT_CWD: __, ...env } = process.env
  const npmConfig = Object.fromEntries(Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith("npm_")))
  return { ...npmConfig, ...extra }
}
