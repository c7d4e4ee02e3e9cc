import * as http from "node:http"

/** A round-robin HTTP proxy on 127.0.0.1 over `backends`; counts the requests each one received. */
export interface Proxy {
  readonly baseUrl: string
  readonly served: ReadonlyArray<number>
  readonly close: () => Promise<void>
}

// Keep-alive to the backends, as a load balancer does; one request at a time per socket.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

export const startProxy = (backends: ReadonlyArray<string>): Promise<Proxy> => {
  const served = backends.map(() => 0)
  let next = 0
  const server = http.createServer((req, res) => {
    const index = next
    next = (next + 1) % backends.length
    served[index] = (served[index] ?? 0) + 1
    const target = new URL(req.url ?? "/", backends[index])
    const upstream = http.request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on("error", () => {
      res.writeHead(502).end()
    })
    req.pipe(upstream)
  })
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        served,
        close: () => new Promise((done) => {
          agent.destroy()
          server.close(() => done())
        })
      })
    })
  })
}
