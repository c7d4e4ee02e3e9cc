import * as Either from "effect/Result"

// libpq's multi-host connection URL (`postgres://h1:5432,h2:5433/hotel?target_session_attrs=read-write`, what
// `pg_autoctl show uri` prints), which `pg` cannot parse: the hosts in order, the session the client wants, and
// for each host the ordinary single-host URL that `pg` then connects with (same credentials, database and
// parameters).

/** What the session must be (libpq's `target_session_attrs`). */
export type TargetSessionAttrs = "any" | "read-write" | "read-only" | "primary" | "standby" | "prefer-standby"

const targetSessionAttrs: ReadonlyArray<TargetSessionAttrs> = [
  "any", "read-write", "read-only", "primary", "standby", "prefer-standby"
]

const isTargetSessionAttrs = (value: string): value is TargetSessionAttrs =>
  (targetSessionAttrs as ReadonlyArray<string>).includes(value)

export interface Host {
  readonly host: string
  readonly port: number
}

export interface ConnectionString {
  /** The hosts in the URL's order. */
  readonly hosts: ReadonlyArray<Host>
  readonly targetSessionAttrs: TargetSessionAttrs
  /** `sslmode` as written (libpq's default is `prefer`; `pg`'s, no TLS). */
  readonly sslMode: string | undefined
  /** The single-host URL of one of the hosts, for `pg` (without an opportunistic `sslmode`). */
  readonly urlFor: (host: Host) => string
}

const defaultPort = 5432

/** `h`, `h:5433`, `[::1]`, `[::1]:5433`; an empty entry is libpq's default host. */
const parseHost = (entry: string): Result.Result<Host, string> => {
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(entry)
  const plain = /^([^:[\]]*)(?::(\d*))?$/.exec(entry)
  const match = bracketed ?? plain
  if (match === null) return Result.fail(`cannot read the host "${entry}"`)
  const host = match[1] === undefined || match[1] === "" ? "localhost" : match[1]
  const portText = match[2] ?? ""
  const port = portText === "" ? defaultPort : Number(portText)
  if (!Number.isInteger(port) || port < 1 || port > 65535) return Result.fail(`the port of "${entry}" is not a port`)
  return Result.succeed({ host, port })
}

const hostText = ({ host, port }: Host) => `${host.includes(":") ? `[${host}]` : host}:${port}`

/** Parameters only the multi-host form has, which `pg` would not understand per host. */
const multiHostParameters = new Set(["target_session_attrs"])

/**
 * `sslmode`s whose libpq meaning `pg` does not have (TLS when the server offers it, unverified, else plain:
 * `pg` takes them as `verify-full`); the host choice implements them itself (`FormationClient`).
 */
export const opportunisticSslModes: ReadonlySet<string> = new Set(["prefer", "allow"])

/**
 * Reads a `postgres://` or `postgresql://` URL with one host or several. Refuses an unknown
 * `target_session_attrs` (a typo would otherwise connect to whichever host answers first); without one, a URL
 * of several hosts asks for `severalHostsDefault`.
 */
export const parseConnectionString = (
  url: string,
  severalHostsDefault: TargetSessionAttrs = "any"
): Result.Result<ConnectionString, string> => {
  const scheme = /^(postgres(?:ql)?):\/\//.exec(url)
  if (scheme === null) return Result.fail("the URL must start with postgres:// or postgresql://")
  const rest = url.slice(scheme[0].length)
  const authorityEnd = rest.search(/[/?#]/)
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd)
  const tail = authorityEnd === -1 ? "" : rest.slice(authorityEnd)
  const at = authority.lastIndexOf("@")
  const userInfo = at === -1 ? "" : authority.slice(0, at + 1)
  const hostList = at === -1 ? authority : authority.slice(at + 1)

  const hosts: Array<Host> = []
  for (const entry of hostList.split(",")) {
    const parsed = parseHost(entry)
    if (Result.isFailure(parsed)) return Result.fail(parsed.left)
    hosts.push(parsed.right)
  }

  const queryStart = tail.indexOf("?")
  const path = queryStart === -1 ? tail : tail.slice(0, queryStart)
  const params = new URLSearchParams(queryStart === -1 ? "" : tail.slice(queryStart + 1))
  const target = params.get("target_session_attrs") ?? (hosts.length > 1 ? severalHostsDefault : "any")
  if (!isTargetSessionAttrs(target)) {
    return Result.fail(`target_session_attrs must be one of ${targetSessionAttrs.join(", ")}, not "${target}"`)
  }
  const sslMode = params.get("sslmode") ?? undefined
  const kept = new URLSearchParams([...params].filter(([name, value]) =>
    !multiHostParameters.has(name) && !(name === "sslmode" && opportunisticSslModes.has(value))
  ))
  const query = kept.size === 0 ? "" : `?${kept.toString()}`
  return Result.succeed({
    hosts,
    targetSessionAttrs: target,
    sslMode,
    urlFor: (host) => `${scheme[1]}://${userInfo}${hostText(host)}${path}${query}`
  })
}

/**
 * Whether the URL asks for more than `pg` does by itself: several hosts, or a kind of session. A plain
 * single-host URL is handed to `pg` as it is.
 */
export const needsHostChoice = (parsed: ConnectionString): boolean =>
  parsed.hosts.length > 1 || parsed.targetSessionAttrs !== "any"

/** `h1:5432,h2:5433/hotel`: where a URL points, without its credentials (for messages). */
export const describeLocation = (url: string): string =>
  Result.match(parseConnectionString(url), {
    onFailure: () => "the database",
    onSuccess: (parsed) => {
      const path = /^[^/]*(\/[^?#]*)?/.exec(url.replace(/^postgres(?:ql)?:\/\//, ""))?.[1] ?? ""
      return `${parsed.hosts.map(hostText).join(",")}${path}`
    }
  })
