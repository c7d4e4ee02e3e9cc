/** The OpenAPI document as plain JSON, for the passes that finish it. */
export type Json = Record<string, unknown>

export const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const child = (node: Json, key: string): Json => {
  const value = node[key]
  if (isJson(value)) return value
  const fresh: Json = {}
  node[key] = fresh
  return fresh
}

export const methods = ["get", "put", "post", "patch", "delete"] as const

/** Every operation of `paths` with its method. */
export const operations = (spec: Json): ReadonlyArray<{ readonly method: string; readonly op: Json }> =>
  Object.values(child(spec, "paths")).flatMap((item) =>
    isJson(item)
      ? methods.flatMap((method) => {
        const op = item[method]
        return isJson(op) ? [{ method, op }] : []
      })
      : []
  )

/** Visits every JSON node depth first. */
export const walk = (node: unknown, visit: (node: Json) => void): void => {
  if (Array.isArray(node)) return node.forEach((item) => walk(item, visit))
  if (!isJson(node)) return
  visit(node)
  Object.values(node).forEach((value) => walk(value, visit))
}
