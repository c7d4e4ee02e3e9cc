import { createHmac, randomBytes } from "node:crypto"

// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of the key
// bytes; the signature is `v1,` + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")).

export const secretPrefix = "whsec_"

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export const newSecret = (): string => `${secretPrefix}${randomBytes(32).toString("base64")}`

const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret, "base64")

/** The `webhook-signature` header value for one message. */
export const sign = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`
