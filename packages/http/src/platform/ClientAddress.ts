import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { BlockList, isIP } from "node:net"

/** `HOTEL_TRUSTED_PROXIES`: comma-separated IP addresses and CIDR ranges of the proxies in front of the API. */
export const trustedProxiesVariable = "HOTEL_TRUSTED_PROXIES"

const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4")

/** The proxy list as a matcher, or the first entry that is neither an address nor a range. */
export const parseTrustedProxies = (list: string): Result.Result<BlockList, string> => {
  const proxies = new BlockList()
  for (const raw of list.split(",")) {
    const entry = raw.trim()
    if (entry.length === 0) continue
    const [address = "", bits, extra] = entry.split("/")
    const prefix = bits === undefined ? undefined : Number(bits)
    const max = isIP(address) === 6 ? 128 : 32
    if (isIP(address) === 0 || extra !== undefined) return Result.fail(entry)
    if (prefix === undefined) proxies.addAddress(address, family(address))
    else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= max && bits !== "") {
      proxies.addSubnet(address, prefix, family(address))
    } else return Result.fail(entry)
  }
  return Result.succeed(proxies)
}

const isTrusted = (proxies: BlockList, address: string) => isIP(address) !== 0 && proxies.check(address, family(address))

/** The TCP peer's address. */
const peerOf = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => {
    const source: unknown = NodeHttpServerRequest.toIncomingMessage(request)
    const socket = typeof source === "object" && source !== null && "socket" in source ? source.socket : undefined
    const address = typeof socket === "object" && socket !== null && "remoteAddress" in socket
      ? socket.remoteAddress
      : undefined
    return typeof address === "string" ? address : "unknown"
  })

/**
 * The client's address for per-address limits. A request from a trusted proxy is attributed to the
 * address that proxy saw: `X-Forwarded-For` read from the right (the hops the proxies appended), skipping
 * trusted proxies, up to the first address that is not one. From any other peer the header is ignored, so
 * a client cannot pick its own address.
 */
export const resolveClientAddress = (proxies: BlockList, peer: string, forwardedFor: string | undefined): string => {
  if (forwardedFor === undefined || !isTrusted(proxies, peer)) return peer
  const hops = forwardedFor.split(",").map((hop) => hop.trim()).filter((hop) => hop.length > 0)
  let client = peer
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? ""
    if (isIP(hop) === 0) return client
    client = hop
    if (!isTrusted(proxies, hop)) return hop
  }
  return client
}

/** The setting's rule: a list `parseTrustedProxies` reads, else the entry it cannot. */
const trustedProxiesRule = (list: string): true | string =>
  Result.match(parseTrustedProxies(list), {
    onFailure: (entry) => `${trustedProxiesVariable}: "${entry}" is not an IP address or CIDR range`,
    onSuccess: () => true
  })

/** Who sent a request, as far as the per-address limits are concerned. */
export class ClientAddress extends Context.Service<ClientAddress, {
  readonly of: (request: HttpServerRequest.HttpServerRequest) => string
}>()("@hotel/http/platform/ClientAddress") {
  /** Trusting the given proxies (addresses or CIDR ranges). */
  static readonly trusting = (proxies: BlockList) =>
    Layer.succeed(ClientAddress, {
      of: (request) => resolveClientAddress(proxies, peerOf(request), request.headers["x-forwarded-for"])
    })

  /** From `HOTEL_TRUSTED_PROXIES` (none by default: every request is its TCP peer's). */
  static readonly layer = Layer.unwrap(
    Config.schema(Schema.String.check(Schema.makeFilter(trustedProxiesRule)), trustedProxiesVariable).pipe(
      Config.withDefault(""),
      // The rule above has refused a list that does not parse.
      Config.map((list) => ClientAddress.trusting(Result.getOrElse(parseTrustedProxies(list), () => new BlockList())))
    )
  )
}
