import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as Schema from "effect/Schema"
import { Uuid } from "@hotel/domain"

/** `{ data: [...] }`, the shape of every non-paged list. */
export const ListOf = <A, I>(item: Schema.Schema<A, I>) => Schema.Struct({ data: Schema.Array(item) })

export const IdParam = HttpApiSchema.param("id", Uuid)

export const Created = { status: 201 } as const

// Wire formats of response fields: plain strings on the wire, described for the API description.

/** A resource id (UUID). */
export const Id = Schema.String.annotations({ jsonSchema: { type: "string", format: "uuid" } })

/** A request's id, as in `X-Request-Id`: `req_` and 32 hex digits. */
export const RequestId = Schema.String.annotations({ jsonSchema: { type: "string", pattern: "^req_[0-9a-f]{32}$" } })

/** The form of an event's id: `evt_` and 32 hex digits (the `webhook-id` of its deliveries). */
export const eventIdPattern = "^evt_[0-9a-f]{32}$"

/** An event's id. */
export const EventId = Schema.String.annotations({ jsonSchema: { type: "string", pattern: eventIdPattern } })

/** An amount of money as a decimal string in its currency's minor-unit precision (never a float). */
export const Money = Schema.String.annotations({
  jsonSchema: { type: "string", pattern: "^-?\\d+(\\.\\d+)?$", examples: ["120.00"] }
})

/** A calendar date `YYYY-MM-DD` (no time zone). */
export const DateOnly = Schema.String.annotations({ jsonSchema: { type: "string", format: "date" } })

/** An instant in UTC, ISO 8601. */
export const Timestamp = Schema.String.annotations({ jsonSchema: { type: "string", format: "date-time" } })

/** An ISO 4217 currency code. */
export const CurrencyCode = Schema.String.annotations({
  jsonSchema: { type: "string", pattern: "^[A-Z]{3}$", examples: ["EUR"] }
})

/** A decimal that is not money (a rate, a percentage), as a string. */
export const Decimal = Schema.String.annotations({ jsonSchema: { type: "string", pattern: "^-?\\d+(\\.\\d+)?$" } })
