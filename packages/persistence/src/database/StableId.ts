import { createHash } from "node:crypto"

/**
 * A name-based UUID (version 5 layout over SHA-1) for things an import names by code, so the same
 * property file gives the same ids on every database: the README's examples can quote the demo's ids.
 */
export const stableId = (...parts: ReadonlyArray<string>): string => {
  const bytes = createHash("sha1").update(`hotel:${parts.join(":")}`).digest().subarray(0, 16)
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
