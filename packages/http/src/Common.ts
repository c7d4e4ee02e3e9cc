import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { Uuid } from "@hotel/domain"

/** `{ data: [...] }`, the shape of every non-paged list (decisions 1). */
export const ListOf = <A, I>(item: Schema.Schema<A, I>) => Schema.Struct({ data: Schema.Array(item) })

export const IdParam = HttpApiSchema.param("id", Uuid)

export const Created = { status: 201 } as const
