import * as Schema from "effect/Schema"

/**
 * The `Idempotency-Key` header, which every authenticated write honours (the request pipeline claims it before
 * the handler runs and validates it there: 1 to 255 printable ASCII characters). Declared on each write so a
 * derived client can send it: `client.holds.create({ headers: { "idempotency-key": key }, payload })`.
 */
export const idempotencyKeyHeader = {
  "idempotency-key": Schema.optionalKey(Schema.String.annotate({
    description: "Makes a retry safe: the same key with the same request replays the first answer for 24 hours"
  }))
}

/** The headers of a write without `If-Match`. */
export const IdempotentHeaders = Schema.Struct(idempotencyKeyHeader)
