import * as Net from "node:net"
import { Duplex } from "node:stream"
import * as Tls from "node:tls"
import { accepts, type Host, type HostChoice, NoSuitableHost, type ServerRole, type SessionRule } from "./HostChoice.js"
import { makeFrameReader } from "./ServerFrames.js"

// The `stream` factory of `@effect/sql-pg` 4 (PgConnection.ts:134, used at :2184 and, for a cancel, :1973):
// the driver wants a Duplex at once, synchronously, and speaks the protocol over it. This one is a Duplex that
// opens its real socket later (the host may need a search first), negotiates TLS itself (libpq's `prefer`:
// TLS when the server offers it, unverified, else plain; the driver is given `ssl: false`), and watches the
// server's frames for what the driver drops: the role announced at startup, the unreplicated-commit WARNING,
// and a statement left unanswered past a bound (a host that vanished without closing its sockets).

/** PostgreSQL's English text for a commit reported without its synchronous standby's confirmation. */
const unreplicatedCommit = /^canceling (?:the )?wait for synchronous replication/

export class CommitNotReplicated extends Error {
  constructor() {
    super("The commit was not confirmed by the synchronous standby")
  }
}

export interface HostStreamSettings {
  readonly choice: HostChoice
  /** What every session of this pool must be (the last pass of `target_session_attrs`). */
  readonly rule: SessionRule
  readonly tls: "disable" | "prefer"
  readonly keepAliveMs: number
  /** How long a statement may go unanswered before the connection is closed under it. */
  readonly answerTimeoutMs: number
  /** Sessions open now (the pool's `open` figure, which the driver does not expose). */
  readonly open: { count: number }
}

const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])

/** Connects to `host` and, for `prefer`, asks for TLS first (the driver has been told there is none). */
const connectTo = (host: Host, settings: HostStreamSettings): Promise<Duplex> =>
  new Promise((resolve, reject) => {
    const socket = Net.connect({ host: host.host, port: host.port, noDelay: true, keepAlive: true, keepAliveInitialDelay: settings.keepAliveMs })
    socket.once("error", reject)
    socket.once("connect", () => {
      if (settings.tls === "disable") return resolve(socket)
      socket.once("data", (answer) => {
        if (answer[0] === 0x4e) return resolve(socket) // N: no TLS on this server, go on in plain
        if (answer[0] !== 0x53) return reject(new Error("unexpected answer to SSLRequest"))
        const tls = Tls.connect({ socket, rejectUnauthorized: false, servername: Net.isIP(host.host) === 0 ? host.host : undefined })
        tls.once("error", reject)
        tls.once("secureConnect", () => resolve(tls))
      })
      socket.write(SSL_REQUEST)
    })
  })

const roleOf = (parameters: ReadonlyMap<string, string>): ServerRole | undefined => {
  // PostgreSQL 14 and later report both at startup; an older server says nothing, and is taken as it comes.
  const hotStandby = parameters.get("in_hot_standby")
  if (hotStandby === undefined) return undefined
  const inRecovery = hotStandby === "on"
  return { inRecovery, readOnly: inRecovery || parameters.get("default_transaction_read_only") === "on" }
}

class HostStream extends Duplex {
  private target: Duplex | undefined
  private readonly queued: Array<{ chunk: Buffer; done: (error?: Error | null) => void }> = []
  private readonly frames = makeFrameReader()
  private readonly parameters = new Map<string, string>()
  private host: Host | undefined
  private started = false
  private answerTimer: ReturnType<typeof setTimeout> | undefined
  private counted = false

  constructor(private readonly settings: HostStreamSettings) {
    super()
    settings.choice.current().then((host) => {
      this.host = host
      return connectTo(host, settings)
    }).then((socket) => this.attach(socket), (error: Error) => this.fail(error))
  }

  private attach(socket: Duplex) {
    if (this.destroyed) return void socket.destroy()
    this.target = socket
    this.settings.open.count++
    this.counted = true
    socket.on("data", (chunk: Buffer) => this.fromServer(chunk))
    socket.on("end", () => this.push(null))
    socket.on("error", (error) => this.fail(error))
    socket.on("close", () => this.destroy())
    for (const { chunk, done } of this.queued.splice(0)) socket.write(chunk, done)
  }

  private fromServer(chunk: Buffer) {
    for (const frame of this.frames(chunk)) {
      if (frame._tag === "ParameterStatus") this.parameters.set(frame.name, frame.value)
      else if (frame._tag === "Notice" && frame.severity === "WARNING" && unreplicatedCommit.test(frame.message)) {
        // The statement in flight (a COMMIT) must not be answered as a success: close under it.
        return this.fail(new CommitNotReplicated())
      } else if (frame._tag === "ReadyForQuery") {
        this.clearAnswerTimer()
        if (!this.started) {
          this.started = true
          const role = roleOf(this.parameters)
          if (role !== undefined && !accepts(this.settings.rule, role)) {
            return this.fail(new NoSuitableHost(`${this.host?.host}:${this.host?.port} is no longer what target_session_attrs=${this.settings.rule} asks for`))
          }
        }
      }
    }
    this.push(chunk)
  }

  private clearAnswerTimer() {
    if (this.answerTimer !== undefined) clearTimeout(this.answerTimer)
    this.answerTimer = undefined
  }

  private fail(error: Error) {
    // A connection that failed or found the wrong role sends the next one searching again.
    if (this.host !== undefined) this.settings.choice.forget(this.host)
    this.destroy(error)
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    if (this.started && this.answerTimer === undefined) {
      const limit = this.settings.answerTimeoutMs
      this.answerTimer = setTimeout(() => this.fail(new Error(`no answer from the database within ${limit} ms`)), limit)
    }
    if (this.target === undefined) this.queued.push({ chunk, done })
    else this.target.write(chunk, done)
  }

  override _read() {}

  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    this.clearAnswerTimer()
    if (this.counted) this.settings.open.count--
    this.counted = false
    this.target?.destroy()
    done(error)
  }
}

/** The `stream` option of the pool: one `HostStream` per connection the driver opens. */
export const hostStreams = (settings: HostStreamSettings) => (): Duplex => new HostStream(settings)
