import * as Effect from "effect/Effect"
import * as net from "node:net"

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it; the probe is closed before answering), for
 * servers the tests and tools start: embedded Postgres, a second API process.
 */
export const freePort = () =>
  Effect.async<number>((resume) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resume(Effect.succeed(port)))
    })
  })
