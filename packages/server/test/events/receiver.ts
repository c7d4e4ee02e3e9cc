import * as Effect from "effect/Effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

// A webhook receiver on loopback: records every request and answers with the next scripted status
// (200 once the script is used up). `hang` holds requests unanswered (to be cut off by a crash).

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  readonly script: Array<number | "hang">
}

export const receiver = Effect.acquireRelease(
  Effect.callback<Receiver & { readonly close: () => void }>((resume) => {
    const received: Array<Received> = []
    const script: Array<number | "hang"> = []
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      req.on("end", () => {
        received.push({ headers: req.headers, body })
        const next = script.shift() ?? 200
        if (next === "hang") return
        res.writeHead(next).end()
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({
        url: `http://127.0.0.1:${port}/hook`,
        received,
        script,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      }))
    })
  }),
  (r) => Effect.sync(() => r.close())
)

export const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Waits (real time, up to `ms`) until `check` holds. */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>, ms = 20_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (Date.now() < deadline) {
      if (yield* check) return true
      yield* realSleep(50)
    }
    return false
  })
