import { Duplex } from "node:stream"
import type { Host } from "./ConnectionString.js"
import { NoSuitableHost } from "./HostSelector.js"
import { openSocket, type SocketSettings } from "./HostSocket.js"
import { makeFrameReader } from "./ServerFrames.js"
import { CommitNotReplicated, isUnreplicatedCommitWarning, NoAnswer } from "./SessionFailures.js"
import { accepts, type ServerRole, type SinglePass } from "./TargetSession.js"

// The driver's `stream` option (`@effect/sql-pg` 4): a synchronous factory of the Duplex it speaks the
// protocol over, called for every session it opens (and for every cancel request). This Duplex opens its real
// socket once the host is known (a search may come first), and watches the server's frames for what the
// driver drops or cannot bound: the role announced at startup, the unreplicated-commit WARNING, and a
// statement left unanswered. Each of those closes the connection under the statement, which the driver then
// fails as a `ConnectionError` with the reason as its cause, and retires the session.

export interface HostStreamSettings {
  /** The host to open the socket on (a remembered host, or the answer of a search). */
  readonly target: () => Promise<Host>
  /** A session to this host failed, broke or found it in the wrong role: the next one must look again. */
  readonly onBroken: (host: Host) => void
  /** What every session must be, by the role it announces at startup; `undefined` for anything. */
  readonly rule: SinglePass | undefined
  readonly socket: SocketSettings
  /**
   * How long a host may take from the socket's opening to a ready session (the driver's own connect timeout
   * also counts the search for the host, which asks each host within this bound).
   */
  readonly connectTimeoutMs: number
  /** How long a statement may go unanswered before the connection is closed under it. */
  readonly answerTimeoutMs: number
  /** The sessions started and not closed yet: the pool's open connections. */
  readonly sessions: Set<Duplex>
}

/**
 * The role a server reports when a session starts (PostgreSQL 14 and later report both); an older server
 * says nothing and is taken as it comes.
 */
const roleOf = (parameters: ReadonlyMap<string, string>): ServerRole | undefined => {
  const hotStandby = parameters.get("in_hot_standby")
  if (hotStandby === undefined) return undefined
  const inRecovery = hotStandby === "on"
  return { inRecovery, readOnly: inRecovery || parameters.get("default_transaction_read_only") === "on" }
}

/** PostgreSQL's CancelRequest: length 16, code 80877102, then the backend's id and secret. */
const isCancelRequest = (chunk: Buffer): boolean =>
  chunk.length >= 8 && chunk.readInt32BE(0) === 16 && chunk.readInt32BE(4) === 80877102

class HostStream extends Duplex {
  private socket: Duplex | undefined
  private host: Host | undefined
  private readonly queued: Array<{ readonly chunk: Buffer; readonly done: (error?: Error | null) => void }> = []
  private readonly frames = makeFrameReader()
  private readonly parameters = new Map<string, string>()
  private readonly opening = new AbortController()
  private started = false
  private ending = false
  /** A stream the driver opened for a cancel request: no session, and the server's close is its answer. */
  private cancelling = false
  private written = false
  /** The bound on the start-up, then on each statement's answer. */
  private deadline: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly settings: HostStreamSettings) {
    super()
    // The driver stops listening once it closes a session; whatever fails after that must not crash the process.
    this.on("error", () => undefined)
    settings.target().then((host) => {
      this.host = host
      return openSocket(host, settings.socket, this.opening.signal)
    }).then((socket) => this.attach(socket), (error: Error) => this.fail(error))
  }

  private attach(socket: Duplex) {
    if (this.destroyed) return void socket.destroy()
    this.socket = socket
    socket.on("data", (chunk: Buffer) => this.fromServer(chunk))
    socket.on("end", () => this.push(null))
    socket.on("error", (error) => this.fail(error))
    socket.on("close", () => this.closedByServer())
    for (const { chunk, done } of this.queued.splice(0)) socket.write(chunk, done)
    if (this.cancelling) return
    const limit = this.settings.connectTimeoutMs
    this.deadline = setTimeout(() => this.fail(new Error(`Connection timed out: no session within ${limit} ms`)), limit)
  }

  private fromServer(chunk: Buffer) {
    for (const frame of this.frames(chunk)) {
      if (frame._tag === "ParameterStatus") this.parameters.set(frame.name, frame.value)
      else if (frame._tag === "Notice" && frame.severity === "WARNING" && isUnreplicatedCommitWarning(frame.message)) {
        // The statement in flight (a COMMIT) must not be answered as a success: close under it. A session
        // runs one statement at a time, so the warning is that statement's.
        return this.fail(new CommitNotReplicated())
      } else if (frame._tag === "ReadyForQuery") {
        this.clearDeadline()
        if (!this.started && !this.start()) return
      }
    }
    this.push(chunk)
  }

  /** The session is ready: kept if its server is what the rule asks for. */
  private start(): boolean {
    const role = roleOf(this.parameters)
    if (this.settings.rule !== undefined && role !== undefined && !accepts(this.settings.rule, role)) {
      const where = this.host === undefined ? "the host" : `${this.host.host}:${this.host.port}`
      this.fail(new NoSuitableHost(`${where} is no longer what target_session_attrs=${this.settings.rule} asks for`))
      return false
    }
    this.started = true
    this.clearDeadline()
    this.settings.sessions.add(this)
    return true
  }

  private clearDeadline() {
    if (this.deadline !== undefined) clearTimeout(this.deadline)
    this.deadline = undefined
  }

  private fail(error: Error) {
    if (this.destroyed) return
    if (this.host !== undefined && !this.cancelling) this.settings.onBroken(this.host)
    this.destroy(error)
  }

  /** A close the driver did not ask for (the server ended the session, or the network did). */
  private closedByServer() {
    if (!this.ending && !this.destroyed && !this.cancelling && this.host !== undefined) this.settings.onBroken(this.host)
    this.destroy()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    if (!this.written) {
      this.written = true
      this.cancelling = isCancelRequest(chunk)
    }
    // Statements only: the start-up has its own bound (`attach`).
    if (this.started && this.deadline === undefined) {
      const limit = this.settings.answerTimeoutMs
      this.deadline = setTimeout(() => this.fail(new NoAnswer(limit)), limit)
    }
    if (this.socket === undefined) this.queued.push({ chunk, done })
    else this.socket.write(chunk, done)
  }

  override _final(done: (error?: Error | null) => void) {
    // The driver's Terminate was the last write; the server answers it by closing.
    this.ending = true
    this.clearDeadline()
    if (this.socket === undefined) return done()
    this.socket.end(done)
  }

  override _read() {}

  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    this.ending = true
    this.clearDeadline()
    this.settings.sessions.delete(this)
    this.opening.abort()
    this.socket?.destroy()
    done(error)
  }
}

/** The `stream` option of a pool: one `HostStream` per connection the driver opens. */
export const hostStreams = (settings: HostStreamSettings) => (): Duplex => new HostStream(settings)
