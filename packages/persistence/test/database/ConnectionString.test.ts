import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import { describeLocation, needsHostChoice, parseConnectionString } from "../../src/database/ConnectionString.js"

// libpq's multi-host URL, as `pg_autoctl show uri` prints it, read into its hosts, the session it asks for and
// the single-host URL the driver reads each host's credentials and parameters from.

const parsed = (url: string, severalHostsDefault?: "read-write" | "prefer-standby") =>
  Result.getOrThrow(parseConnectionString(url, severalHostsDefault))

describe("connection strings", () => {
  it("a formation's URL: every host in order, the session it asks for, and each host's own URL", () => {
    const url = parsed("postgres://app:s3cret@node2:5433,node1:5432/hotel?target_session_attrs=read-write&sslmode=require")
    expect(url.hosts).toEqual([{ host: "node2", port: 5433 }, { host: "node1", port: 5432 }])
    expect(url.targetSessionAttrs).toBe("read-write")
    expect(needsHostChoice(url)).toBe(true)
    expect(url.urlFor({ host: "node1", port: 5432 })).toBe("postgres://app:s3cret@node1:5432/hotel?sslmode=require")
  })

  it("a port left out is 5432; an IPv6 address keeps its brackets; an empty host is localhost", () => {
    const url = parsed("postgresql://[::1]:6000,db,/hotel")
    expect(url.hosts).toEqual([{ host: "::1", port: 6000 }, { host: "db", port: 5432 }, { host: "localhost", port: 5432 }])
    expect(url.urlFor({ host: "::1", port: 6000 })).toBe("postgresql://[::1]:6000/hotel")
  })

  it("libpq's opportunistic sslmode is implemented by the service's stream, so it is not handed to the driver", () => {
    const url = parsed("postgres://localhost:55102,localhost:55101/hotel?target_session_attrs=read-write&sslmode=prefer")
    expect(url.sslMode).toBe("prefer")
    expect(url.urlFor({ host: "localhost", port: 55101 })).toBe("postgres://localhost:55101/hotel")
  })

  it("several hosts without target_session_attrs ask for the caller's default; one host asks for nothing", () => {
    expect(parsed("postgres://a,b/hotel", "read-write").targetSessionAttrs).toBe("read-write")
    expect(parsed("postgres://a,b/hotel", "prefer-standby").targetSessionAttrs).toBe("prefer-standby")
    const single = parsed("postgres://postgres@127.0.0.1:5432/hotel", "read-write")
    expect(single.targetSessionAttrs).toBe("any")
    expect(needsHostChoice(single)).toBe(false)
    expect(needsHostChoice(parsed("postgres://db/hotel?target_session_attrs=primary"))).toBe(true)
  })

  it("refuses an unknown target_session_attrs, a port that is not one, and another scheme", () => {
    expect(parseConnectionString("postgres://a,b/hotel?target_session_attrs=readwrite")).toEqual(
      Result.fail("target_session_attrs must be one of any, read-write, read-only, primary, standby, prefer-standby, not \"readwrite\"")
    )
    expect(Result.isFailure(parseConnectionString("postgres://a:99999/hotel"))).toBe(true)
    expect(Result.isFailure(parseConnectionString("mysql://a/hotel"))).toBe(true)
  })

  it("where a URL points, for messages: every host and the database, never the credentials", () => {
    expect(describeLocation("postgres://app:s3cret@node2:5433,node1/hotel?sslmode=prefer")).toBe("node2:5433,node1:5432/hotel")
    expect(describeLocation("postgres://postgres@127.0.0.1:5999/hotel")).toBe("127.0.0.1:5999/hotel")
    expect(describeLocation("not a url")).toBe("the database")
  })
})
