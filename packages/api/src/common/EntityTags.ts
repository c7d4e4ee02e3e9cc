import * as OpenApi from "effect/http-api/OpenApi"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { idempotencyKeyHeader } from "./IdempotencyKey.js"

// Entity tags in the contract: which reads carry an `ETag` (and answer `If-None-Match` with 304),
// and the `If-Match` header of the writes that take one. The gateway computes the tags; the write services
// compare `If-Match` under their row lock.

/** Endpoint annotation: a successful `GET` carries a strong `ETag` and honours `If-None-Match` (gateway). */
export class ETagged extends Context.Service<ETagged, true>()("@hotel/http/common/ETagged") {}

type Operation = Record<string, unknown>

const etagHeader = {
  ETag: {
    description: "Strong entity tag of this representation; send it back in If-None-Match or If-Match",
    schema: { type: "string" }
  }
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? value as Record<string, unknown> : {}

/** The OpenAPI operation of an `ETagged` read: the `If-None-Match` parameter, `ETag` on 200, and 304. */
const documentConditionalRead = (op: Operation): Operation => {
  const responses = asRecord(op.responses)
  const parameters = Array.isArray(op.parameters) ? op.parameters : []
  return {
    ...op,
    parameters: [...parameters, {
      name: "If-None-Match",
      in: "header",
      required: false,
      description: "An ETag this client holds: 304 when it is still current",
      schema: { type: "string" }
    }],
    responses: {
      ...responses,
      "200": { ...asRecord(responses["200"]), headers: { ...asRecord(asRecord(responses["200"]).headers), ...etagHeader } },
      "304": { description: "Not modified: If-None-Match names the current ETag; no body", headers: etagHeader }
    }
  }
}

/** Annotations of a read with an entity tag: `.annotateMerge(EntityTagged)`. */
export const EntityTagged = Context.make(ETagged, true).pipe(Context.add(OpenApi.Transform, documentConditionalRead))

/**
 * The headers of a write that takes `If-Match` (`headers: IfMatchHeaders`), so the handler and a derived
 * client see it. Absent: the write runs unconditionally. Such a write takes `Idempotency-Key` too.
 */
export const IfMatchHeaders = Schema.Struct({
  ...idempotencyKeyHeader,
  "if-match": Schema.optionalKey(Schema.String.annotate({
    description: "The ETag of the resource's GET this change is based on: 412 precondition_failed when it is no longer current"
  }))
})
