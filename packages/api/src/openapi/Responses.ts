import * as Option from "effect/Option"
import { apiErrorNames, type OperationFacts } from "./Operations.js"
import { child, isJson, type Json } from "./Spec.js"

const bodyMethods = new Set(["post", "put", "patch", "delete"])

/** Errors only a request with a body can meet (the body checks and the `Idempotency-Key` claim). */
const bodyErrors = new Set([
  "invalid_json_error",
  "payload_too_large_error",
  "idempotency_key_reuse_error",
  "idempotency_in_progress_error"
])

const statusText: Record<string, string> = {
  "400": "The request is invalid: `invalid_parameters` names the field in `param`",
  "401": "No API key, or one that is unknown, revoked or expired",
  "403": "The API key lacks the scope this operation needs",
  "404": "The resource does not exist in this property",
  "409": "The request conflicts with the resource's state or a previous request",
  "412": "The resource changed since the version the request names",
  "413": "The request body is larger than 1 MiB",
  "422": "The request is well formed but breaks a business rule",
  "429": "Too many requests: wait the `Retry-After` seconds",
  "500": "An unexpected failure; the `request_id` finds it in the logs",
  "503": "The API cannot serve this right now (a maintenance window, a busy database, or a process that is stopping): retry after `Retry-After` seconds"
}

/**
 * The error components an operation can answer with: what its endpoint, group and middleware declare, the
 * 404 of an unknown path id, `invalid_parameters` when it takes input, a failure of the server, and for
 * anything but the health checks maintenance, a busy database (every authenticated request reads its key's
 * rate-limit bucket there) and a stopping process that could not finish it in time.
 */
export const allowedErrors = (facts: OperationFacts, method: string, op: Json): ReadonlySet<string> => {
  const hasBody = bodyMethods.has(method)
  const takesInput = hasBody || (Array.isArray(op.parameters) && op.parameters.length > 0)
  return new Set([
    ...[...facts.errors].filter((name) => hasBody || !bodyErrors.has(name)),
    ...Option.toArray(facts.notFound),
    ...(takesInput ? ["invalid_parameters_error"] : []),
    "internal_error_error",
    // A health check answers at once: never still running when a stop cuts what is left.
    ...(facts.isPublic ? [] : ["maintenance_mode_error", "database_busy_error", "shutting_down_error"])
  ])
}

const refName = (schema: unknown): string =>
  isJson(schema) && typeof schema.$ref === "string" ? schema.$ref.split("/").pop() ?? "" : ""

/** Where an error goes among a status's alternatives: every endpoint's first, in their order, then its own. */
const rank = (member: unknown): number => {
  const index = apiErrorNames.indexOf(refName(member))
  return index === -1 ? apiErrorNames.length : index
}

/** Keeps in each error response only the errors in `allowed`; a status left with none is dropped. */
export const pruneErrors = (op: Json, allowed: ReadonlySet<string>): void => {
  const responses = child(op, "responses")
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) < 400 || !isJson(response)) continue
    const content = child(child(response, "content"), "application/json")
    const schema = content.schema
    const members = isJson(schema) && Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
    // A stable sort: an endpoint's own errors keep the order it declares them in.
    const kept = members.filter((member) => allowed.has(refName(member))).sort((a, b) => rank(a) - rank(b))
    if (kept.length === 0) {
      delete responses[status]
      continue
    }
    content.schema = kept.length === 1 ? kept[0] : { anyOf: kept }
    response.description = statusText[status] ?? response.description
  }
}
