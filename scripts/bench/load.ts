// The load generator: `connections` keep-alive connections, each sending its next request as soon as the
// previous answer is read, for a fixed duration. Latency is per request, from send to the end of the body.
import * as http from "node:http"
import { type KeySet, pick } from "./keys.js"

export interface Request {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: unknown
}

export interface LoadResult {
  readonly requests: number
  readonly seconds: number
  readonly throughput: number
  /** Milliseconds, unsorted. */
  readonly latencies: ReadonlyArray<number>
  readonly statuses: Readonly<Record<string, number>>
}

const send = (agent: http.Agent, base: URL, key: string, request: Request): Promise<number> =>
  new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body)
    const req = http.request({
      agent,
      host: base.hostname,
      port: base.port,
      method: request.method,
      path: request.path,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
      }
    }, (res) => {
      res.on("data", () => undefined)
      res.on("end", () => resolve(res.statusCode ?? 0))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

export const runLoad = async (options: {
  readonly baseUrl: string
  /** A key picked at random for each request. */
  readonly keys: KeySet
  readonly connections: number
  readonly seconds: number
  readonly next: () => Request
}): Promise<LoadResult> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections })
  const base = new URL(options.baseUrl)
  const latencies: Array<number> = []
  const statuses: Record<string, number> = {}
  const started = performance.now()
  const end = started + options.seconds * 1000
  const connection = async () => {
    while (performance.now() < end) {
      const sent = performance.now()
      const status = await send(agent, base, pick(options.keys), options.next()).catch(() => 0)
      latencies.push(performance.now() - sent)
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1
    }
  }
  await Promise.all(Array.from({ length: options.connections }, connection))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return { requests: latencies.length, seconds, throughput: latencies.length / seconds, latencies, statuses }
}
