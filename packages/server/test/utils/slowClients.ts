import * as Effect from "effect/Effect"
import * as Http from "node:http"
import * as Net from "node:net"
import type { Attempt } from "./connections.js"

// Clients a stopping server must not wait for past its bound: a body trickling in, an answer read slowly, a
// connection kept alive and idle, and loops of requests that never pause.

export interface RawRequest {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
}

const failed = (connected: boolean, error: NodeJS.ErrnoException): Attempt => ({
  _tag: "Failed",
  connected,
  code: error.code ?? error.message
})

/** Reads the answer to `req` whole, as an `Attempt`. */
const onAnswer = (settle: (attempt: Attempt) => void, connected: () => boolean) => (res: Http.IncomingMessage) => {
  let text = ""
  res.setEncoding("utf8")
  res.on("data", (chunk: string) => (text += chunk))
  res.on("end", () => settle({ _tag: "Answered", status: res.statusCode ?? 0, headers: res.headers, body: text }))
  res.on("error", (error: NodeJS.ErrnoException) => settle(failed(connected(), error)))
}

/**
 * A request on a new connection whose headers go out at once and whose body follows a byte every `everyMs`
 * (ASCII): a slow or stuck client. Ends with the answer, or with the connection closed under it.
 */
export const tricklingRequest = (baseUrl: string, request: RawRequest, body: string, everyMs: number) =>
  Effect.callback<Attempt>((resume) => {
    const url = new URL(baseUrl)
    let connected = false
    let done = false
    let sent = 0
    const settle = (attempt: Attempt) => {
      if (done) return
      done = true
      clearInterval(timer)
      resume(Effect.succeed(attempt))
    }
    const req = Http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      agent: false,
      headers: { ...request.headers, "content-length": String(body.length) }
    }, onAnswer(settle, () => connected))
    req.on("socket", (socket) => socket.once("connect", () => (connected = true)))
    req.on("error", (error: NodeJS.ErrnoException) => settle(failed(connected, error)))
    req.flushHeaders()
    const timer = setInterval(() => {
      if (sent < body.length) req.write(body.charAt(sent++))
      if (sent === body.length) {
        clearInterval(timer)
        req.end()
      }
    }, everyMs)
    return Effect.sync(() => {
      clearInterval(timer)
      req.destroy()
    })
  })

export interface SlowRead {
  /** Bytes read before the connection ended. */
  readonly received: number
  /** How it ended: `end` (closed by the server after what it sent), or the error's code. */
  readonly ended: string
}

/**
 * `count` `GET path` sent at once on one connection (pipelined), whose answers are read a chunk every
 * `everyMs`: a client that reads slowly. `started` is done once the first bytes came; `ended` once the
 * connection is closed.
 */
export const slowReader = (baseUrl: string, path: string, count: number, everyMs: number) =>
  Effect.gen(function*() {
    const url = new URL(baseUrl)
    let received = 0
    let first: (() => void) | undefined
    const started = Effect.callback<void>((resume) => {
      if (received > 0) return resume(Effect.void)
      first = () => resume(Effect.void)
    })
    const socket = Net.connect({ host: url.hostname, port: Number(url.port) })
    socket.once("connect", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`.repeat(count)))
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length
      first?.()
      socket.pause()
      setTimeout(() => socket.resume(), everyMs)
    })
    const ended = Effect.callback<SlowRead>((resume) => {
      let how = "end"
      socket.on("error", (error: NodeJS.ErrnoException) => (how = error.code ?? error.message))
      socket.once("close", () => resume(Effect.succeed({ received, ended: how })))
      return Effect.sync(() => socket.destroy())
    })
    return { started, ended }
  })

/**
 * A kept-alive connection that sent one `GET path`, was answered, and stays idle. `closed` is done when the
 * server closes it: with the error, if any, and what `atClose` saw at that moment.
 */
export const idleConnection = <A>(baseUrl: string, path: string, atClose: () => A) =>
  Effect.callback<{ readonly answer: string; readonly closed: Effect.Effect<{ readonly error: string | undefined; readonly seen: A }> }>(
    (resume) => {
      const url = new URL(baseUrl)
      const socket = Net.connect({ host: url.hostname, port: Number(url.port) })
      let error: string | undefined
      let outcome: { readonly error: string | undefined; readonly seen: A } | undefined
      let onClose: ((value: { readonly error: string | undefined; readonly seen: A }) => void) | undefined
      const closed = Effect.callback<{ readonly error: string | undefined; readonly seen: A }>((done) => {
        if (outcome !== undefined) return done(Effect.succeed(outcome))
        onClose = (value) => done(Effect.succeed(value))
      })
      socket.on("error", (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message))
      socket.once("close", () => {
        outcome = { error, seen: atClose() }
        onClose?.(outcome)
      })
      socket.once("connect", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`))
      let answer = ""
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString("latin1")
        // A small answer with its length: whole once its body has come.
        const [head, body] = answer.split("\r\n\r\n", 2)
        const length = /content-length: (\d+)/i.exec(head ?? "")?.[1]
        if (body !== undefined && length !== undefined && body.length >= Number(length)) resume(Effect.succeed({ answer, closed }))
      })
      return Effect.sync(() => socket.destroy())
    }
  )

export interface LoopRequest {
  /** Whether it went out on a connection an earlier request of the loop had used. */
  readonly reused: boolean
  readonly outcome: Attempt
}

/**
 * `requests.length` clients, each sending its request again as soon as the last one ended, until `done()`:
 * `keptAlive(i)` ones on one kept-alive connection (a new one when the server closed it), the others on a new
 * connection each time. After a refusal a loop waits 10 ms, so that it does not spin while nothing listens.
 */
export const requestLoops = (
  baseUrl: string,
  requests: ReadonlyArray<RawRequest>,
  keptAlive: (i: number) => boolean,
  done: () => boolean
) => {
  const url = new URL(baseUrl)
  const send = (request: RawRequest, agent: Http.Agent | false) =>
    new Promise<LoopRequest>((resolve) => {
      let connected = false
      let reused = false
      const req = Http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, agent, headers: request.headers }, onAnswer(
        (outcome) => resolve({ reused, outcome }),
        () => connected
      ))
      req.on("socket", (socket) => {
        reused = req.reusedSocket
        if (reused) connected = true
        else socket.once("connect", () => (connected = true))
      })
      req.on("error", (error: NodeJS.ErrnoException) => resolve({ reused, outcome: failed(connected, error) }))
      req.end()
    })
  const loop = async (request: RawRequest, kept: boolean) => {
    const agent = kept ? new Http.Agent({ keepAlive: true, maxSockets: 1 }) : false
    const sent: Array<LoopRequest> = []
    while (!done()) {
      const one = await send(request, agent)
      sent.push(one)
      if (one.outcome._tag === "Failed" && one.outcome.code === "ECONNREFUSED") await new Promise((resolve) => setTimeout(resolve, 10))
    }
    if (agent !== false) agent.destroy()
    return { keptAlive: kept, sent }
  }
  return Effect.promise(() => Promise.all(requests.map((request, i) => loop(request, keptAlive(i)))))
}
