import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { Uuid } from "@hotel/domain"

/**
 * `{ data: [...] }`, the shape of every non-paged list; named in the API description after its item
 * (`RatePlanList`), so generated clients get a type of that name too.
 */
export const ListOf = <S extends Schema.Top>(item: S) => {
  const list = Schema.Struct({ data: Schema.Array(item) })
  const name = SchemaAST.resolveIdentifier(item.ast)
  return name === undefined ? list : list.annotate({ identifier: `${name}List` })
}

/** The `{id}` of a path (`/reservations/:id`): `params: IdParam`. */
export const IdParam = { id: Uuid }

/** A create's answer: `success: created(Schema)` is answered 201. */
export const created = <S extends Schema.Top>(schema: S) => schema.pipe(HttpApiSchema.status(201))

// Wire formats of response fields: plain strings on the wire, described for the API description. The server
// writes these values itself, so their form is documented, not checked again on the way out.

/** A check that refuses nothing and gives the API description the form of the text, `pattern`. */
export const describedAs = (pattern: string) => Schema.makeFilter((_: string) => true, { toJsonSchema: () => ({ pattern }) })

/** A string whose form the API description states as `pattern`. */
const described = (pattern: string) => Schema.String.check(describedAs(pattern))

/** A resource id (UUID). */
export const Id = Schema.String.annotate({ format: "uuid" })

/** A request's id, as in `X-Request-Id`: `req_` and 32 hex digits. */
export const RequestId = described("^req_[0-9a-f]{32}$")

/** The form of an event's id: `evt_` and 32 hex digits (the `webhook-id` of its deliveries). */
export const eventIdPattern = "^evt_[0-9a-f]{32}$"

/** An event's id. */
export const EventId = described(eventIdPattern)

const decimalPattern = "^-?\\d+(\\.\\d+)?$"

/** An amount of money as a decimal string in its currency's minor-unit precision (never a float). */
export const Money = described(decimalPattern).annotate({ examples: ["120.00"] })

/** A calendar date `YYYY-MM-DD` (no time zone). */
export const DateOnly = Schema.String.annotate({ format: "date" })

/** An instant in UTC, ISO 8601. */
export const Timestamp = Schema.String.annotate({ format: "date-time" })

/** An ISO 4217 currency code. */
export const CurrencyCode = described("^[A-Z]{3}$").annotate({ examples: ["EUR"] })

/** A decimal that is not money (a rate, a percentage), as a string. */
export const Decimal = described(decimalPattern)
