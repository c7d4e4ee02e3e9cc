import { describe, expect, it } from "@effect/vitest"
import { destinationProblem, isPrivateAddress } from "../../src/events/destinations.js"
import { nextAttemptAt, retryWindow } from "../../src/events/retries.js"
import { eventIdFrom, eventIdPattern, isEventType } from "../../src/events/types.js"

describe("event ids and types", () => {
  it("an id is evt_ and 32 hex digits", () => {
    expect(eventIdFrom(new Uint8Array(16).fill(171))).toBe(`evt_${"ab".repeat(16)}`)
    expect(eventIdFrom(new Uint8Array(16))).toMatch(eventIdPattern)
  })
  it("knows the published types only", () => {
    expect(isEventType("reservation.no_show")).toBe(true)
    expect(isEventType("reservation.deleted")).toBe(false)
  })
})

describe("retry schedule", () => {
  const first = new Date(Date.parse("2031-01-01T00:00:00Z"))
  const after = (ms: number) => new Date(first.getTime() + ms)

  it("waits about 5 s, 30 s, 2 min, 10 min, 1 h, then hourly", () => {
    let at = first
    const gaps: Array<number> = []
    for (let attempt = 1; attempt <= 7; attempt++) {
      const next = nextAttemptAt(first, attempt, at)
      if (next === null) break
      gaps.push(next.getTime() - at.getTime())
      at = next
    }
    expect(gaps).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 3_600_000, 3_600_000])
  })

  it("stops once the next attempt would fall 24 hours after the first", () => {
    expect(nextAttemptAt(first, 20, after(retryWindow - 3_600_000))).toEqual(after(retryWindow))
    expect(nextAttemptAt(first, 21, after(retryWindow - 3_599_999))).toBeNull()
  })
})

describe("webhook destinations", () => {
  it("recognises loopback, private, link-local, CGNAT, unspecified and mapped addresses", () => {
    for (const address of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "[::1]",
      // the hex spellings the URL parser writes, IPv4-compatible, NAT64, 6to4, scoped and unparseable ones
      "::ffff:7f00:1", "::ffff:a9fe:a9fe", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "fe80::1%eth0", "0:0:0:0:0:0:0:1",
      "1::2::3", "gggg::1"]) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
    for (const address of ["93.184.216.34", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::808:808", "2a00:1450:4001:80b::200e"]) {
      expect(isPrivateAddress(address), address).toBe(false)
    }
  })

  it("needs https to a public host unless private destinations are allowed", () => {
    expect(destinationProblem("https://hooks.example.com/x", false)).toBeNull()
    expect(destinationProblem("http://hooks.example.com/x", false)).toBe("scheme")
    expect(destinationProblem("https://localhost/x", false)).toBe("private_address")
    expect(destinationProblem("https://10.0.0.8/x", false)).toBe("private_address")
    for (const url of ["https://localhost./x", "https://[::ffff:127.0.0.1]/x", "https://[::ffff:10.0.0.1]/x", "https://[64:ff9b::7f00:1]/x", "https://[::127.0.0.1]/x"]) {
      expect(destinationProblem(url, false), url).toBe("private_address")
    }
    expect(destinationProblem("/relative", false)).toBe("not_a_url")
    expect(destinationProblem("https://a:b@hooks.example.com/x", false)).toBe("credentials")
    expect(destinationProblem("http://127.0.0.1:8080/x", true)).toBeNull()
    expect(destinationProblem("ftp://127.0.0.1/x", true)).toBe("scheme")
  })
})
