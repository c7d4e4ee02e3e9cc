import * as Effect from "effect/Effect"
import * as net from "node:net"

// A TCP forwarder in front of a real PostgreSQL, to give one server several "hosts" and make them fail the
// ways a machine does: refusing connections (the server is down), or going silent (the machine is gone and
// nothing answers, not even a reset). The database behind stays real; only the network is cut.

export type ProxyMode = "forward" | "refuse" | "silent"

export interface TcpProxy {
  readonly host: string
  readonly port: number
  /** Connections accepted and forwarded so far. */
  readonly forwarded: () => number
  /**
   * From now on: forward, refuse (new connections are reset at once, open ones are reset), or stay silent
   * (new connections are accepted and never answered, open ones stop carrying anything).
   */
  readonly set: (mode: ProxyMode) => void
}

/** A proxy on a free port of 127.0.0.1 to `target` for the scope. */
export const tcpProxy = (target: { readonly host: string; readonly port: number }) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly proxy: TcpProxy; readonly close: () => void }>((resume) => {
      let mode: ProxyMode = "forward"
      let forwarded = 0
      const open = new Set<net.Socket>()
      const track = (socket: net.Socket) => {
        open.add(socket)
        socket.on("close", () => open.delete(socket))
        socket.on("error", () => undefined)
      }
      const server = net.createServer((client) => {
        track(client)
        if (mode === "refuse") return client.resetAndDestroy()
        if (mode === "silent") return
        forwarded += 1
        const upstream = net.connect(target.port, target.host)
        track(upstream)
        const relay = (from: net.Socket, to: net.Socket) =>
          from.on("data", (chunk) => {
            if (mode === "forward") to.write(chunk)
          })
        relay(client, upstream)
        relay(upstream, client)
        client.on("close", () => upstream.destroy())
        upstream.on("close", () => client.destroy())
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        const set = (next: ProxyMode) => {
          mode = next
          if (next === "refuse") for (const socket of open) socket.resetAndDestroy()
        }
        const close = () => {
          for (const socket of open) socket.destroy()
          server.close()
        }
        resume(Effect.succeed({ proxy: { host: "127.0.0.1", port, forwarded: () => forwarded, set }, close }))
      })
    }),
    ({ close }) => Effect.sync(close)
  ).pipe(Effect.map(({ proxy }) => proxy))

/** `url` with its host list replaced by `hosts` (`host:port` each) and `query` parameters added. */
export const withHosts = (url: string, hosts: ReadonlyArray<string>, query: Record<string, string> = {}): string => {
  const match = /^(postgres(?:ql)?:\/\/)([^@/]*@)?[^/?#]*([^?#]*)(?:\?([^#]*))?$/.exec(url)
  if (match === null) throw new Error(`not a postgres URL: ${url}`)
  const params = new URLSearchParams(match[4] ?? "")
  for (const [name, value] of Object.entries(query)) params.set(name, value)
  const text = params.toString()
  return `${match[1]}${match[2] ?? ""}${hosts.join(",")}${match[3] ?? ""}${text === "" ? "" : `?${text}`}`
}

/** `host:port` of a single-host URL. */
export const hostOf = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.hostname}:${parsed.port === "" ? "5432" : parsed.port}`
}
