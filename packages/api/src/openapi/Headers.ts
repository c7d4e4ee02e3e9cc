import type { OperationFacts } from "./Operations.js"
import { child, isJson, type Json } from "./Spec.js"

const integer = { type: "integer", minimum: 0 }

/** The headers the pipeline writes, described once and referenced from the responses that carry them. */
export const headerComponents: Json = {
  RequestId: {
    description: "The request's id (`req_...`), also in every error body and the access log line",
    schema: { type: "string", pattern: "^req_[0-9a-f]{32}$" }
  },
  RateLimitLimit: { description: "The key's bucket size (requests per minute)", schema: integer },
  RateLimitRemaining: { description: "Whole requests left in the key's bucket", schema: integer },
  RetryAfter: { description: "Seconds to wait before trying again", schema: integer },
  IdempotentReplayed: {
    description: "`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`",
    schema: { type: "string", enum: ["true"] }
  }
}

export const parameterComponents: Json = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description: "Makes a retry safe: the same key with the same request replays the first answer for 24 hours; " +
      "with another request it is 409 `idempotency_key_reuse`. A fresh UUID per logical request is ideal.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
    example: "5f0c8d0e-2b1a-4c51-9a8e-2f4a1d3c7b90"
  }
}

const ref = (kind: "headers" | "parameters", name: string) => ({ $ref: `#/components/${kind}/${name}` })

const mutations = new Set(["post", "patch", "delete", "put"])

/** `if-match` → `If-Match`: every header the description names is written one way. */
const canonical = (name: string): string =>
  name.split("-").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("-")

/**
 * An operation's header parameters in canonical case (a schema declares them in lower case, as the server
 * reads them), with `Idempotency-Key` (declared on every write) as the shared component.
 */
const headerParameters = (op: Json, method: string, authenticated: boolean): ReadonlyArray<unknown> => {
  const declared = (Array.isArray(op.parameters) ? op.parameters : []).flatMap((parameter) => {
    if (!isJson(parameter) || parameter.in !== "header" || typeof parameter.name !== "string") return [parameter]
    const name = canonical(parameter.name)
    return name === "Idempotency-Key" ? [] : [{ ...parameter, name }]
  })
  return authenticated && mutations.has(method) ? [...declared, ref("parameters", "IdempotencyKey")] : declared
}

/** The headers of an operation: its `Idempotency-Key` parameter and the headers of each of its responses. */
export const addHeaders = (op: Json, method: string, facts: OperationFacts, allowed: ReadonlySet<string>): void => {
  const authenticated = !facts.isPublic
  const parameters = headerParameters(op, method, authenticated)
  if (parameters.length > 0) op.parameters = parameters
  for (const [status, response] of Object.entries(child(op, "responses"))) {
    if (!isJson(response)) continue
    const headers = child(response, "headers")
    headers["X-Request-Id"] = ref("headers", "RequestId")
    if (authenticated && status !== "401") {
      headers["X-RateLimit-Limit"] = ref("headers", "RateLimitLimit")
      headers["X-RateLimit-Remaining"] = ref("headers", "RateLimitRemaining")
    }
    const inProgress = status === "409" && allowed.has("idempotency_in_progress_error")
    if (status === "429" || status === "503" || inProgress) headers["Retry-After"] = ref("headers", "RetryAfter")
    if (authenticated && mutations.has(method) && Number(status) < 300) {
      headers["Idempotent-Replayed"] = ref("headers", "IdempotentReplayed")
    }
  }
}
