import * as Result from "effect/Result"

// libpq's multi-host connection URL (`postgres://h1:5432,h2:5433/hotel?target_session_attrs=read-write`, what
// `pg_autoctl show uri` prints), which the driver's own URL parser refuses: the hosts in order, the session the
// client wants, how TLS is used, and the ordinary single-host URL the driver reads the rest from (credentials,
// database, parameters).

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
  /** `sslmode` as written (libpq's default is `prefer`; the service's, as the drivers', no TLS). */
  readonly sslMode: string | undefined
  /** The database named by the path (or the `dbname` parameter), if any. */
  readonly database: string | undefined
  /** `sslrootcert`: the file of the certificate authorities a verified TLS session trusts. */
  readonly sslRootCert: string | undefined
  /** The single-host URL of one of the hosts (without an opportunistic `sslmode`). */
  readonly urlFor: (host: Host) => string
}

const defaultPort = 5432

/**
 * `h`, `h:5433`, `[::1]`, `[::1]:5433`, a Unix socket directory (`/var/run/postgresql`); an empty entry is
 * libpq's default host.
 */
const parseHost = (entry: string, port: number): Result.Result<Host, string> => {
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(entry)
  const plain = /^([^:[\]]*)(?::(\d*))?$/.exec(entry)
  const match = bracketed ?? plain
  if (match === null) return Result.fail(`cannot read the host "${entry}"`)
  const host = match[1] === undefined || match[1] === "" ? "localhost" : match[1]
  const portText = match[2] ?? ""
  const given = portText === "" ? port : Number(portText)
  if (!Number.isInteger(given) || given < 1 || given > 65535) return Result.fail(`the port of "${entry}" is not a port`)
  return Result.succeed({ host, port: given })
}

const databaseOf = (path: string): string | undefined => {
  try {
    const name = decodeURIComponent(path.replace(/^\//, ""))
    return name === "" ? undefined : name
  } catch {
    return undefined
  }
}

/** A host given as a Unix socket directory (libpq's form), reached at `<dir>/.s.PGSQL.<port>`. */
export const isSocketDirectory = (host: Host): boolean => host.host.startsWith("/")

const hostText = ({ host, port }: Host) => `${host.includes(":") ? `[${host}]` : host}:${port}`

/** Parameters only the multi-host form has, which the driver would not understand per host. */
const multiHostParameters = new Set(["target_session_attrs"])

/**
 * `sslmode`s whose libpq meaning the driver does not have (TLS when the server offers it, unverified, else
 * plain: the driver verifies the certificate); the service's own stream implements them (`HostSocket.ts`).
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

  const queryStart = tail.indexOf("?")
  const path = queryStart === -1 ? tail : tail.slice(0, queryStart)
  const params = new URLSearchParams(queryStart === -1 ? "" : tail.slice(queryStart + 1))

  // libpq's `host` and `port` parameters stand for the authority's (a Unix socket directory is given so).
  const portParam = params.get("port")
  const port = portParam === null ? defaultPort : Number(portParam)
  const hosts: Array<Host> = []
  for (const entry of (params.get("host") ?? hostList).split(",")) {
    const parsed = parseHost(entry, port)
    if (Result.isFailure(parsed)) return Result.fail(parsed.failure)
    hosts.push(parsed.success)
  }
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
    database: params.get("dbname") ?? databaseOf(path),
    sslRootCert: params.get("sslrootcert") ?? undefined,
    // A socket directory stays in the `host` parameter; the authority must still be a host name.
    urlFor: (host) => `${scheme[1]}://${userInfo}${isSocketDirectory(host) ? "localhost" : hostText(host)}${path}${query}`
  })
}

/** Whether the URL asks for a choice among hosts: several hosts, or a kind of session. */
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
