import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { getErrorMeta } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { ApiErrors, NotFoundAs, Public, RequiredScope } from "../common/Security.js"

/** What the description needs to know of an operation that the generated document does not say. */
export interface OperationFacts {
  /** The error components the endpoint and its middleware declare. */
  readonly errors: ReadonlySet<string>
  /** The error component of a path id that names nothing (`NotFoundAs`). */
  readonly notFound: Option.Option<string>
  readonly scope: Option.Option<string>
  readonly isPublic: boolean
}

const componentNames = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  const encoded = SchemaAST.toEncoded(ast)
  return SchemaAST.isUnion(encoded)
    ? encoded.types.flatMap(componentNames)
    : Option.toArray(Option.fromNullishOr(SchemaAST.resolveIdentifier(encoded)))
}

/** The component names of an error schema: its wire form's identifier (`rate_plan_not_found_error`). */
const identifiers = (schema: Schema.Top): ReadonlyArray<string> => componentNames(schema.ast)

/**
 * The errors every endpoint may answer with (`ApiErrors`), in the order they are declared: the description
 * lists them first wherever they apply, then the endpoint's own.
 */
export const apiErrorNames: ReadonlyArray<string> = [...ApiErrors.error].flatMap(identifiers)

/** The facts of every operation of `api`, by operation id. */
export const operationFacts = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyMap<string, OperationFacts> => {
  const facts = new Map<string, OperationFacts>()
  HttpApi.reflect(api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, mergedAnnotations, middleware }) => {
      const id = group.topLevel ? endpoint.identifier : `${group.identifier}.${endpoint.identifier}`
      // The errors `ApiErrors` declares are every endpoint's (`allowedErrors` keeps those this one can meet); an
      // endpoint's own are those it declares and those of the request pipeline's middleware it runs.
      const pipeline = [...middleware].filter((tag) => tag.key !== ApiErrors.key)
      facts.set(id, {
        errors: new Set([...endpoint.error, ...pipeline.flatMap((tag) => [...tag.error])].flatMap(identifiers)),
        notFound: Context.getOption(mergedAnnotations, NotFoundAs).pipe(
          Option.flatMap((cls) => (Schema.isSchema(cls) ? getErrorMeta(cls) : Option.none())),
          Option.map((meta) => `${meta.code}_error`)
        ),
        scope: Context.getOption(mergedAnnotations, RequiredScope),
        isPublic: Option.isSome(Context.getOption(mergedAnnotations, Public))
      })
    }
  })
  return facts
}
