type Spec = Record<string, unknown>

const isDecodeErrorRef = (value: unknown): boolean =>
  typeof value === "object" && value !== null && "$ref" in value &&
  String((value as { $ref: unknown }).$ref).endsWith("/HttpApiDecodeError")

/**
 * The framework documents its own decode error under every 400, but the gateway answers with the
 * envelope instead; remove it so the description shows what clients really get.
 */
export const stripDefaultDecodeError = (spec: Spec): Spec => {
  const json = JSON.parse(JSON.stringify(spec)) as Record<string, unknown>
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.filter((item) => !isDecodeErrorRef(item)).map(visit)
    if (typeof node !== "object" || node === null) return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === "HttpApiDecodeError" || isDecodeErrorRef(value)) continue
      out[key] = visit(value)
    }
    return out
  }
  return visit(json) as Spec
}
