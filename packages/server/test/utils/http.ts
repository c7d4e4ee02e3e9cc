import * as Http from "node:http"
import * as Net from "node:net"
import * as Effect from "effect/Effect"

export interface ApiResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed body, typed by the caller. */
  readonly json: <T = Record<string, unknown>>() => T
}

export interface ErrorBody {
  readonly error: {
    readonly type: string
    readonly code: string
    readonly message: string
    readonly param?: string
    readonly estimated_end?: string
    readonly request_id: string
  }
}

export interface RequestOptions {
  /** A JSON value to send, or raw text or bytes (sent as is). */
  readonly body?: unknown
  readonly raw?: string | Uint8Array
  /** An API key; `null` sends no Authorization header. */
  readonly key?: string | null
  readonly headers?: Record<string, string>
}

/** Real HTTP against the in-process server. */
export const request = (baseUrl: string, defaultKey: string | null) =>
(method: string, path: string, options: RequestOptions = {}): Effect.Effect<ApiResponse> =>
  Effect.promise(async () => {
    const key = options.key === undefined ? defaultKey : options.key
    const headers: Record<string, string> = { ...options.headers }
    if (key !== null) headers["authorization"] = `Bearer ${key}`
    let body: string | Uint8Array | undefined
    if (options.raw !== undefined) body = options.raw
    else if (options.body !== undefined) body = JSON.stringify(options.body)
    if (body !== undefined && headers["content-type"] === undefined) headers["content-type"] = "application/json"
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: <T>() => JSON.parse(text) as T
    }
  })

/**
 * One request with the path sent exactly as given (`fetch` resolves `.` and `..` segments before sending),
 * for the router's handling of paths no browser would send.
 */
export const rawRequest = (baseUrl: string, key: string | null) =>
(method: string, path: string): Effect.Effect<ApiResponse> =>
  Effect.callback<ApiResponse>((resume) => {
    const url = new URL(baseUrl)
    const req = Http.request({
      host: url.hostname,
      port: url.port,
      method,
      path,
      headers: key === null ? {} : { authorization: `Bearer ${key}` }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") headers.set(name, value)
        }
        resume(Effect.succeed({ status: res.statusCode ?? 0, headers, text, json: <T>() => JSON.parse(text) as T }))
      })
    })
    req.on("error", (error) => resume(Effect.die(error)))
    req.end()
  })

/**
 * One request written byte for byte on a socket (a method Node's client would refuse or upper-case), its
 * answer parsed by hand: status, headers, body.
 */
export const socketRequest = (baseUrl: string, text: string): Effect.Effect<ApiResponse> =>
  Effect.callback<ApiResponse>((resume) => {
    const url = new URL(baseUrl)
    const socket = Net.connect(Number(url.port), url.hostname, () => socket.end(text))
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", (error) => resume(Effect.die(error)))
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      const [head, body = ""] = raw.split("\r\n\r\n", 2)
      const [statusLine, ...lines] = head.split("\r\n")
      const headers = new Headers()
      for (const line of lines) {
        const at = line.indexOf(":")
        if (at > 0) headers.set(line.slice(0, at).trim(), line.slice(at + 1).trim())
      }
      const status = Number(statusLine.split(" ")[1])
      resume(Effect.succeed({ status, headers, text: body, json: <T>() => JSON.parse(body) as T }))
    })
  })
