import pg from "pg"
import type { Host, TargetSessionAttrs } from "./ConnectionString.js"
import { type HostSelector, NoSuitableHost, type Probe } from "./HostSelector.js"
import { guardQueries } from "./QueryGuard.js"
import { accepts, type ServerRole, sessionRule } from "./TargetSession.js"

// The `pg.Client` every pool of the process opens connections with (pg-pool's `Client` option): bounded
// connects and answers, TCP keepalive, and, for a multi-host URL, the host chosen by a `HostSelector` and the
// session's role checked before the pool lends the connection out.

export interface ClientBounds {
  /** How long one host may take to accept a connection (TCP and start-up). */
  readonly connectTimeoutMs: number
  /** Idle time before TCP keepalive probes a connection (then every second, ten times, by Node's defaults). */
  readonly keepAliveIdleMs: number
  /** How long a statement may go unanswered before its connection is closed (see `guardQueries`). */
  readonly answerTimeoutMs: number
}

/** The host choice of a multi-host URL. */
export interface Formation {
  readonly selector: HostSelector
  readonly attrs: TargetSessionAttrs
}

const roleQuery =
  "SELECT pg_catalog.pg_is_in_recovery() AS in_recovery, pg_catalog.current_setting('transaction_read_only') AS read_only"

/** The role of the server behind a connected client. */
export const readRole = async (client: pg.Client): Promise<ServerRole> => {
  const result = await client.query<{ in_recovery: boolean; read_only: string }>(roleQuery)
  const row = result.rows[0]
  if (row === undefined) throw new Error("the server did not say whether it is in recovery")
  return { inRecovery: row.in_recovery, readOnly: row.read_only === "on" }
}

/** The message of `pg` for a server that answers `N` to its TLS request. */
const noTls = "The server does not support SSL connections"

const roleOf = async (config: pg.ClientConfig): Promise<ServerRole> => {
  const client = new pg.Client(config)
  // An error after the answer (the server closing) must not become an unhandled 'error' event.
  client.on("error", () => undefined)
  try {
    await client.connect()
    return await readRole(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/**
 * Asks a host its role on a short-lived connection. With an opportunistic `sslmode` (`prefer`, `allow`), TLS
 * first and, when the server has none, plain, as libpq does.
 */
export const probeWith = (configFor: (host: Host, plain: boolean) => pg.ClientConfig, opportunisticTls: boolean) =>
async (host: Host): Promise<Probe> => {
  try {
    return { role: await roleOf(configFor(host, false)), plain: false }
  } catch (cause) {
    if (!opportunisticTls || !(cause instanceof Error) || cause.message !== noTls) throw cause
    return { role: await roleOf(configFor(host, true)), plain: true }
  }
}

interface Internals {
  readonly connection: { ssl: unknown; readonly stream: { readonly destroyed: boolean } }
}

type ConnectCallback = (error: Error | null, client?: pg.Client) => void

/** The client class of a pool: `formation` for a multi-host URL (or one that names a kind of session). */
export const clientClass = (bounds: ClientBounds, formation?: Formation): new(config?: pg.ClientConfig) => pg.Client =>
  class HotelClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({
        ...config,
        connectionTimeoutMillis: bounds.connectTimeoutMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: bounds.keepAliveIdleMs
      })
      guardQueries(this, bounds.answerTimeoutMs)
    }

    override connect(): Promise<pg.Client>
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      if (formation === undefined) return callback === undefined ? super.connect() : super.connect(callback)
      const connected = this.connectToChosenHost(formation)
      if (callback === undefined) return connected
      const done = callback as ConnectCallback
      connected.then((client) => done(null, client), (error: Error) => done(error))
    }

    private async connectToChosenHost({ attrs, selector }: Formation): Promise<pg.Client> {
      const choice = await selector.current()
      const internals = this as unknown as Internals
      // pg-pool closes the socket of a connection that was not made within its timeout.
      if (internals.connection.stream.destroyed) throw new Error("Connection terminated: the pool's timeout passed while choosing the host")
      this.host = choice.host.host
      this.port = choice.host.port
      if (choice.plain) {
        this.ssl = false
        internals.connection.ssl = false
      }
      let role: ServerRole
      try {
        await super.connect()
        role = await readRole(this)
      } catch (cause) {
        selector.forget(choice.host)
        throw cause
      }
      if (!accepts(sessionRule(attrs), role)) {
        selector.forget(choice.host)
        await this.end().catch(() => undefined)
        throw new NoSuitableHost(`${choice.host.host}:${choice.host.port} is no longer what target_session_attrs=${attrs} asks for`)
      }
      // A connection that breaks later (the server died or restarted) sends the next one searching again.
      this.on("error", () => selector.forget(choice.host))
      return this
    }
  }
