import type { TargetSessionAttrs } from "./ConnectionString.js"

// libpq's rules for choosing among several hosts (`target_session_attrs`), as pure functions: which server a
// session may be opened on, and which host of a list wins.

/** What a server said about itself on a new session. */
export interface ServerRole {
  /** `pg_is_in_recovery()`: a standby (hot standby) rather than a primary. */
  readonly inRecovery: boolean
  /** `transaction_read_only` of a new session: a standby's, or a primary's with `default_transaction_read_only`. */
  readonly readOnly: boolean
}

export type SinglePass = Exclude<TargetSessionAttrs, "prefer-standby">

/** Whether a session on a server of this role is acceptable for one pass of the rule. */
export const accepts = (attrs: SinglePass, role: ServerRole): boolean => {
  switch (attrs) {
    case "any":
      return true
    case "read-write":
      return !role.readOnly
    case "read-only":
      return role.readOnly
    case "primary":
      return !role.inRecovery
    case "standby":
      return role.inRecovery
  }
}

/** The passes over the host list: `prefer-standby` looks for a standby first, then takes any server. */
export const passes = (attrs: TargetSessionAttrs): ReadonlyArray<SinglePass> =>
  attrs === "prefer-standby" ? ["standby", "any"] : [attrs]

/**
 * What a session already opened must still be for the client to keep using the host it chose: the last pass
 * (a `prefer-standby` client that finds its standby promoted keeps it: any server will do).
 */
export const sessionRule = (attrs: TargetSessionAttrs): SinglePass => {
  const all = passes(attrs)
  return all[all.length - 1] ?? "any"
}

/**
 * The host to use, given what each host answered in the URL's order (`undefined`: unreachable, or not asked
 * yet): the first acceptable one of the first pass that has any, as libpq does.
 */
export const chooseHost = (attrs: TargetSessionAttrs, roles: ReadonlyArray<ServerRole | undefined>): number | undefined => {
  for (const pass of passes(attrs)) {
    const index = roles.findIndex((role) => role !== undefined && accepts(pass, role))
    if (index !== -1) return index
  }
  return undefined
}

/**
 * Whether the hosts asked so far already decide the choice, so the others need not be asked: an acceptable
 * host of the first pass wins whatever comes after it.
 */
export const decided = (attrs: TargetSessionAttrs, roles: ReadonlyArray<ServerRole | undefined>): boolean => {
  const first = passes(attrs)[0] ?? "any"
  return roles.some((role) => role !== undefined && accepts(first, role))
}
