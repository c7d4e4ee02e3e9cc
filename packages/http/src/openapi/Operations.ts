import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { getErrorMeta } from "@hotel/domain"
import * as AST from "effect/SchemaAST"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { NotFoundAs, Public, RequiredScope } from "../common/Security.js"

/** What the description needs to know of an operation that the generated document does not say. */
export interface OperationFacts {
  /** The error components the endpoint, its group and its middleware declare. */
  readonly errors: ReadonlySet<string>
  /** The error component of a path id that names nothing (`NotFoundAs`). */
  readonly notFound: Option.Option<string>
  readonly scope: Option.Option<string>
  readonly isPublic: boolean
}

const identifiers = (ast: AST.AST): ReadonlyArray<string> =>
  AST.isUnion(ast)
    ? ast.types.flatMap(identifiers)
    : Option.toArray(AST.getIdentifierAnnotation(AST.isTransformation(ast) ? ast.from : ast))

/** The facts of every operation of `api` (the endpoints without the API-wide errors), by operation id. */
export const operationFacts = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ReadonlyMap<string, OperationFacts> => {
  const facts = new Map<string, OperationFacts>()
  // The request pipeline is API-level middleware (`common/Pipeline.ts`), so its failures are the API's errors,
  // which the reflection lists under every endpoint: an endpoint's own are the rest, plus its middleware's.
  const apiErrors = new Set(identifiers(api.errorSchema.ast))
  HttpApi.reflect(api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, errors, group, mergedAnnotations, middleware }) => {
      const id = group.topLevel ? endpoint.name : `${group.identifier}.${endpoint.name}`
      const declared = [...errors.values()].flatMap(({ ast }) => Option.toArray(ast).flatMap(identifiers))
      const pipeline = [...middleware].flatMap((tag) => identifiers(tag.failure.ast))
      facts.set(id, {
        errors: new Set([...declared.filter((name) => !apiErrors.has(name)), ...pipeline]),
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
