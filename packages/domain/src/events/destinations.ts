// Where webhooks may be sent: an absolute `https` URL to a public address. `http`, loopback and
// private destinations only when the operator allows them (`HOTEL_WEBHOOKS_ALLOW_PRIVATE=true`, for tests and
// private deployments). The same rule is checked on the literal host when an endpoint is saved and on every
// resolved address when a delivery is sent, so a name that later resolves to an internal address is refused.

export type DestinationProblem = "not_a_url" | "scheme" | "credentials" | "private_address"

const ipv4 = (text: string): ReadonlyArray<number> | null => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null
  const octets = parts.map(Number)
  return octets.every((o) => o <= 255) ? octets : null
}

const privateV4 = ([a, b]: ReadonlyArray<number>): boolean =>
  a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
  (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) ||
  a >= 224

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 part split), or null. */
const ipv6 = (text: string): ReadonlyArray<number> | null => {
  const halves = text.split("::")
  if (halves.length > 2) return null
  const groups = (part: string): Array<number> | null => {
    if (part === "") return []
    const out: Array<number> = []
    const pieces = part.split(":")
    for (const [i, piece] of pieces.entries()) {
      const v4 = i === pieces.length - 1 ? ipv4(piece) : null
      if (v4 !== null) out.push(v4[0] * 256 + v4[1], v4[2] * 256 + v4[3])
      else if (/^[0-9a-f]{1,4}$/.test(piece)) out.push(parseInt(piece, 16))
      else return null
    }
    return out
  }
  const head = groups(halves[0])
  const tail = halves.length === 2 ? groups(halves[1]) : []
  if (head === null || tail === null) return null
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  return [...head, ...Array<number>(missing).fill(0), ...tail]
}

const embeddedV4 = (high: number, low: number): ReadonlyArray<number> => [high >> 8, high & 255, low >> 8, low & 255]

const privateV6 = (g: ReadonlyArray<number>): boolean => {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, so also :: and ::1, which embed 0.0.0.x) and
  // NAT64 (64:ff9b::a.b.c.d) addresses reach the IPv4 address they carry
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return privateV4(embeddedV4(g[6], g[7]))
  if (g[0] === 0x64 && g[1] === 0xff9b) return zeros(2, 6) ? privateV4(embeddedV4(g[6], g[7])) : true
  if (g[0] === 0x2002) return privateV4(embeddedV4(g[1], g[2])) // 6to4
  return (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0 || // link- and site-local
    (g[0] & 0xff00) === 0xff00 || // multicast
    (g[0] === 0x2001 && (g[1] === 0 || g[1] === 0xdb8)) || // Teredo, documentation
    (g[0] === 0x100 && zeros(1, 4)) // discard-only
}

/** Whether an IP address (v4 or v6 text) is loopback, private, link-local, unspecified or multicast. */
export const isPrivateAddress = (address: string): boolean => {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase()
  const v4 = ipv4(bare)
  if (v4 !== null) return privateV4(v4)
  if (!bare.includes(":")) return false
  const v6 = ipv6(bare.replace(/%.*$/, ""))
  return v6 === null || privateV6(v6)
}

/** `localhost`, its subdomains, and the same names written fully qualified (`localhost.`). */
const isLocalName = (host: string): boolean => {
  const name = host.replace(/\.+$/, "")
  return name === "localhost" || name.endsWith(".localhost")
}

/** The first problem with `url` as a webhook destination, or null when it may be used. */
export const destinationProblem = (url: string, allowPrivate: boolean): DestinationProblem | null => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "not_a_url"
  }
  if (parsed.protocol !== "https:" && !(allowPrivate && parsed.protocol === "http:")) return "scheme"
  if (parsed.username !== "" || parsed.password !== "") return "credentials"
  const host = parsed.hostname.toLowerCase()
  if (!allowPrivate && (isLocalName(host) || isPrivateAddress(host))) return "private_address"
  return null
}

export const problemMessage: Record<DestinationProblem, string> = {
  not_a_url: "must be an absolute URL",
  scheme: "must be an https URL",
  credentials: "must not carry a user name or password",
  private_address: "must not point to a loopback or private address"
}
