import * as Fs from "node:fs"
import * as Net from "node:net"
import type { Duplex } from "node:stream"
import * as Tls from "node:tls"
import * as Result from "effect/Result"
import { type ConnectionString, type Host, isSocketDirectory } from "./ConnectionString.js"

// The socket a session runs on, opened by the service rather than by the driver: the driver is told there is
// no TLS (`ssl: false`), because the stream under it must read the server's frames (`HostStream.ts`), which a
// TLS session the driver opened itself would hide. So the TLS negotiation is here, with libpq's meaning of each
// `sslmode` (the driver's `prefer` would verify the certificate; libpq's does not).

/** How the sessions of a URL use TLS. */
export type TlsPolicy =
  /** `disable`, or no `sslmode` (the drivers' default): plain. */
  | { readonly _tag: "Plain" }
  /** `prefer`, `allow`: TLS when the server offers it, unverified, else plain. */
  | { readonly _tag: "Opportunistic" }
  /**
   * `require` (verified against `sslrootcert` when one is given, as libpq does), `verify-ca` (the chain) and
   * `verify-full` (the chain and the host name).
   */
  | { readonly _tag: "Required"; readonly options: Tls.ConnectionOptions }

const loadCa = (file: string | undefined): Result.Result<Buffer | undefined, string> => {
  if (file === undefined) return Result.succeed(undefined)
  try {
    return Result.succeed(Fs.readFileSync(file))
  } catch (cause) {
    return Result.fail(`cannot read sslrootcert ${file}: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

const skipHostName = () => undefined

/** The policy of a URL's `sslmode` and `sslrootcert`; an `sslmode` libpq does not know is refused. */
export const tlsPolicyOf = (url: ConnectionString): Result.Result<TlsPolicy, string> => {
  const mode = url.sslMode
  if (mode === undefined || mode === "disable") return Result.succeed({ _tag: "Plain" })
  if (mode === "prefer" || mode === "allow") return Result.succeed({ _tag: "Opportunistic" })
  if (mode !== "require" && mode !== "verify-ca" && mode !== "verify-full") {
    return Result.fail(`sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full, not "${mode}"`)
  }
  return Result.map(loadCa(url.sslRootCert), (ca): TlsPolicy => {
    const trusted = ca === undefined ? {} : { ca }
    if (mode === "verify-full") return { _tag: "Required", options: { ...trusted, rejectUnauthorized: true } }
    if (mode === "verify-ca" || ca !== undefined) {
      return { _tag: "Required", options: { ...trusted, rejectUnauthorized: true, checkServerIdentity: skipHostName } }
    }
    return { _tag: "Required", options: { rejectUnauthorized: false } }
  })
}

/** PostgreSQL's SSLRequest: length 8, code 80877103. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])

export interface SocketSettings {
  readonly tls: TlsPolicy
  /** Idle time before TCP keepalive probes a connection (then every second, ten times, by Node's defaults). */
  readonly keepAliveMs: number
}

/**
 * The connected socket to `host`, TLS negotiated as the policy says (a Unix socket is never encrypted, as
 * with libpq). Aborting `signal` destroys whatever is open.
 */
export const openSocket = (host: Host, settings: SocketSettings, signal: AbortSignal): Promise<Duplex> =>
  new Promise((resolve, reject) => {
    const local = isSocketDirectory(host)
    const socket = local
      ? Net.connect({ path: `${host.host}/.s.PGSQL.${host.port}`, signal })
      : Net.connect({
        host: host.host,
        port: host.port,
        noDelay: true,
        keepAlive: true,
        keepAliveInitialDelay: settings.keepAliveMs,
        signal
      })
    socket.once("error", reject)
    socket.once("connect", () => {
      const tls = settings.tls
      if (tls._tag === "Plain" || local) return resolve(socket)
      socket.once("data", (answer: Buffer) => {
        if (answer[0] === 0x4e) {
          // N: this server has no TLS.
          if (tls._tag === "Opportunistic") return resolve(socket)
          socket.destroy()
          return reject(new Error("The server does not support SSL connections"))
        }
        if (answer[0] !== 0x53) {
          socket.destroy()
          return reject(new Error("The server answered the SSL request with neither S nor N"))
        }
        const secured = Tls.connect({
          socket,
          servername: Net.isIP(host.host) === 0 ? host.host : undefined,
          ...(tls._tag === "Opportunistic" ? { rejectUnauthorized: false } : tls.options)
        })
        signal.addEventListener("abort", () => secured.destroy(), { once: true })
        secured.once("error", reject)
        secured.once("secureConnect", () => resolve(secured))
      })
      socket.write(SSL_REQUEST)
    })
  })
