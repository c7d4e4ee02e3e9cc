// How the drill loses the primary's node.
import * as fs from "node:fs"

/**
 * `node`: the whole machine, its keeper's process group and its PostgreSQL's killed together (a lost host or a
 * kernel panic: nothing is left to tell the monitor, whose health checks decide). `postmaster`: PostgreSQL alone
 * (a crash: its keeper reports it down at once and restarts it).
 */
export type Loss = "node" | "postmaster"

/** The process group of a running process (`/proc/<pid>/stat`, the field after its state). */
const processGroup = (pid: number): number | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const group = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2])
    return Number.isInteger(group) && group > 0 ? group : undefined
  } catch {
    return undefined
  }
}

/** SIGKILL as `loss` says, to a node's postmaster and (for `node`) its keeper; answers what was killed. */
export const lost = (loss: Loss, postmaster: number, keeper: number | undefined): string => {
  if (loss === "postmaster") {
    process.kill(postmaster, "SIGKILL")
    return `'s postmaster (pid ${postmaster})`
  }
  // Both groups are read before either is killed, then killed back to back: nothing of the node runs on to
  // report its death (the keeper's group holds pg_autoctl and its services, the postmaster's its backends;
  // pg_autoctl 2.0 runs PostgreSQL in its own group, pg_ctl in a session of its own).
  const groups = [...new Set([keeper === undefined ? undefined : processGroup(keeper), processGroup(postmaster)])]
    .filter((group): group is number => group !== undefined)
  for (const group of groups) process.kill(-group, "SIGKILL")
  process.kill(postmaster, "SIGKILL")
  return ` whole: process group${groups.length === 1 ? "" : "s"} ${groups.join(", ")} (its keeper and postmaster, pid ${postmaster})`
}
