import * as Effect from "effect/Effect"
import { randomInt } from "node:crypto"
import { readFileSync } from "node:fs"
import * as net from "node:net"

// Why not the port the OS picks for `listen(0)`: it comes from the range the kernel also gives every outgoing
// connection its local port from (kept through TIME_WAIT), so under the suite's load a port free at the probe
// may be some client's by the time a spawned server binds it, seconds later. A port below that range is only
// ever taken by an explicit bind: another test's random pick, probed as well, and seldom the same.

/** Ports the kernel does not hand out on its own: below Linux's ephemeral range (unknown elsewhere). */
const quietPorts = (): { readonly low: number; readonly high: number } | undefined => {
  try {
    const ephemeralLow = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])
    return ephemeralLow > 12_000 ? { low: 10_000, high: ephemeralLow } : undefined
  } catch {
    return undefined
  }
}

/** Whether a listener could bind `port` on 127.0.0.1 just now. */
const bindable = (port: number) =>
  Effect.callback<boolean>((resume) => {
    const probe = net.createServer()
    probe.once("error", () => resume(Effect.succeed(false)))
    probe.listen(port, "127.0.0.1", () => probe.close(() => resume(Effect.succeed(true))))
  })

/** The port the OS picks for `listen(0)`. */
const anyPort = Effect.callback<number>((resume) => {
  const server = net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * The first of `count` consecutive TCP ports on 127.0.0.1 that were all free a moment ago (probed, then closed),
 * for servers the tests and tools start: embedded Postgres, another API process, its processes' metrics ports.
 */
export const freePorts = (count: number) =>
  Effect.gen(function*() {
    const range = quietPorts()
    for (;;) {
      const first = range === undefined ? yield* anyPort : randomInt(range.low, range.high - count + 1)
      const free = yield* Effect.forEach(Array.from({ length: count }, (_, i) => first + i), bindable)
      if (free.every(Boolean)) return first
    }
  })

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export const freePort = () => freePorts(1)
