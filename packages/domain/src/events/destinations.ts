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

/** Whether an IP address (v4 or v6 text) is loopback, private, link-local, unspecified or multicast. */
export const isPrivateAddress = (address: string): boolean => {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase()
  const v4 = ipv4(bare)
  if (v4 !== null) return privateV4(v4)
  if (!bare.includes(":")) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)
  if (mapped !== null) return isPrivateAddress(mapped[1])
  return bare === "::" || bare === "::1" || /^f[cd]/.test(bare) || /^fe[89ab]/.test(bare) || bare.startsWith("ff")
}

const isLocalName = (host: string): boolean => host === "localhost" || host.endsWith(".localhost")

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
