import { Events } from "@hotel/domain"
import * as Effect from "effect/Effect"
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns"
import { lookup } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"

// One POST of a webhook. Redirects are never followed (a 3xx is just a non-2xx answer). Unless private
// destinations are allowed, the address a name resolves to is checked at connection time (the socket's own
// lookup), so a name cannot be pointed at an internal address after the endpoint was saved.

export type SendOutcome =
  | { readonly _tag: "Answered"; readonly status: number }
  | { readonly _tag: "Failed"; readonly error: string }

export const sendTimeoutMs = 10_000

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | ReadonlyArray<LookupAddress>, family?: number) => void

/** `dns.lookup` that refuses loopback and private answers. */
const publicLookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) =>
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    const refused = addresses.find((a) => Events.isPrivateAddress(a.address))
    if (refused !== undefined) {
      return callback(Object.assign(new Error(`refused private address ${refused.address}`), { code: "EPRIVATE" }), [])
    }
    if ("all" in options && options.all === true) return callback(null, addresses)
    const first = addresses[0]
    return first === undefined
      ? callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), [])
      : callback(null, first.address, first.family)
  })

export const postWebhook = (
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean
): Effect.Effect<SendOutcome> =>
  Effect.callback<SendOutcome>((resume, signal) => {
    const problem = Events.destinationProblem(url, allowPrivate)
    if (problem !== null) return resume(Effect.succeed({ _tag: "Failed", error: `destination refused: ${Events.problemMessage[problem]}` }))
    const target = new URL(url)
    const literal = isIP(target.hostname.replace(/^\[|\]$/g, "")) !== 0
    const client = target.protocol === "https:" ? https : http
    const request = client.request(target, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      signal,
      ...(allowPrivate || literal ? {} : { lookup: publicLookup as never })
    }, (response) => {
      response.resume()
      response.on("end", () => resume(Effect.succeed({ _tag: "Answered", status: response.statusCode ?? 0 })))
      response.on("error", (error) => resume(Effect.succeed({ _tag: "Failed", error: error.message })))
    })
    // The whole exchange, not just an idle socket, must finish within the limit.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${sendTimeoutMs / 1000} s`)), sendTimeoutMs)
    request.on("close", () => clearTimeout(deadline))
    request.on("error", (error) => resume(Effect.succeed({ _tag: "Failed", error: error.message })))
    request.end(body)
  })
