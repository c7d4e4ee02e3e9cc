import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Http from "node:http"
import * as Net from "node:net"

// Requests each on a connection of its own, telling apart what a stopping server may do to a client: answer it,
// refuse its connection (ECONNREFUSED: it never got in, a retry is safe), or reset a connection it had accepted
// (ECONNRESET, "socket hang up": the client cannot know whether its request ran).

/** How a request on a connection of its own ended. */
export type Attempt =
  | {
    readonly _tag: "Answered"
    readonly status: number
    readonly headers: Http.IncomingHttpHeaders
    readonly body: string
  }
  | {
    readonly _tag: "Failed"
    /** Whether the connection had been accepted (the TCP handshake completed) before it failed. */
    readonly connected: boolean
    readonly code: string
  }

export interface AttemptHooks {
  /** The connection was accepted. */
  readonly onConnect?: () => void
  /** The whole request was written. */
  readonly onSent?: () => void
}

export interface OpenRequest {
  /** Sends the rest of the body and waits for the answer (or the failure). */
  readonly finish: Effect.Effect<Attempt>
}

/**
 * A request on a new connection (`Connection: keep-alive`, as clients send) whose headers and first `sent`
 * characters of `body` go out now; `finish` sends the rest. Until then the server has it in flight.
 */
export const openRequest = (
  baseUrl: string,
  request: { readonly method: string; readonly path: string; readonly headers: Record<string, string> },
  body: string,
  sent: number,
  hooks: AttemptHooks = {}
) =>
  Effect.gen(function*() {
    const outcome = yield* Deferred.make<Attempt>()
    const settle = (attempt: Attempt) => Deferred.doneUnsafe(outcome, Effect.succeed(attempt))
    const url = new URL(baseUrl)
    let connected = false
    const req = Http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      agent: new Http.Agent({ keepAlive: true, maxSockets: 1 }),
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(body)) }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => settle({ _tag: "Answered", status: res.statusCode ?? 0, headers: res.headers, body: text }))
      res.on("error", (error: NodeJS.ErrnoException) => settle({ _tag: "Failed", connected, code: error.code ?? error.message }))
    })
    req.on("socket", (socket) =>
      socket.once("connect", () => {
        connected = true
        hooks.onConnect?.()
      }))
    req.on("error", (error: NodeJS.ErrnoException) => settle({ _tag: "Failed", connected, code: error.code ?? error.message }))
    req.on("finish", () => hooks.onSent?.())
    req.write(body.slice(0, sent))
    // The connection stays open after the answer (kept alive, unless the answer said `Connection: close`): a
    // stopping server has to close it, as it would a real client's.
    const finish = Effect.sync(() => req.end(body.slice(sent))).pipe(
      Effect.andThen(Deferred.await(outcome)),
      Effect.timeoutOrElse({
        duration: "60 seconds",
        orElse: () =>
          Effect.sync((): Attempt => {
            req.destroy()
            return { _tag: "Failed", connected, code: "no answer in 60 s" }
          })
      })
    )
    return { finish } satisfies OpenRequest
  })

/** A whole request on a new connection. */
export const attempt = (
  baseUrl: string,
  request: { readonly method: string; readonly path: string; readonly headers: Record<string, string> },
  body = "",
  hooks: AttemptHooks = {}
) => Effect.flatMap(openRequest(baseUrl, request, body, body.length, hooks), (open) => open.finish)

/** A TCP connection attempt alone: `"connected"`, or the error's code (ECONNREFUSED when nothing listens). */
export const connectOnly = (baseUrl: string) =>
  Effect.callback<string>((resume) => {
    const url = new URL(baseUrl)
    const socket = Net.connect({ host: url.hostname, port: Number(url.port) })
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed("connected"))
    })
    socket.once("error", (error: NodeJS.ErrnoException) => resume(Effect.succeed(error.code ?? error.message)))
  })
