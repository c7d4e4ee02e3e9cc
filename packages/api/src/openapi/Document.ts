import type * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Option from "effect/Option"
import { withEventWebhooks } from "../events/openapi.js"
import { addExamples } from "./Examples.js"
import { describeFields } from "./Glossary.js"
import { addHeaders, headerComponents, parameterComponents } from "./Headers.js"
import { operationFacts, type OperationFacts } from "./Operations.js"
import { allowedErrors, pruneErrors } from "./Responses.js"
import { child, isJson, type Json, operations, walk } from "./Spec.js"

const withScope = (op: Json, facts: OperationFacts) => {
  const scope = Option.match(facts.scope, {
    onNone: () => (facts.isPublic ? "No API key needed." : "Any valid API key."),
    onSome: (scope) => `Needs an API key with scope \`${scope}\`.`
  })
  op.description = [op.description, scope].filter((part) => typeof part === "string").join("\n\n")
}

/** One tag per title: several groups may share a heading ("Rate plans" reads and writes). */
const mergeTags = (spec: Json) => {
  const tags = Array.isArray(spec.tags) ? spec.tags.filter(isJson) : []
  const byName = new Map<unknown, Json>()
  tags.forEach((tag) => byName.set(tag.name, { ...tag, ...byName.get(tag.name) }))
  spec.tags = [...byName.values()]
}

const refsIn = (node: unknown): ReadonlyArray<string> => {
  const refs: Array<string> = []
  walk(node, (json) => {
    if (typeof json.$ref === "string" && json.$ref.startsWith("#/components/schemas/")) {
      refs.push(json.$ref.slice("#/components/schemas/".length))
    }
  })
  return refs
}

/**
 * A query parameter is sent as text but means what it decodes to (`limit` is an integer): its schema is the
 * meaning its filter describes, not the text under it.
 */
const withParameterMeanings = (op: Json) => {
  for (const parameter of Array.isArray(op.parameters) ? op.parameters : []) {
    if (!isJson(parameter) || !isJson(parameter.schema)) continue
    // A header's description is written on its schema (`IfMatchHeaders`); the parameter says it.
    if (parameter.description === undefined && typeof parameter.schema.description === "string") {
      parameter.description = parameter.schema.description
    }
    const { allOf, type } = parameter.schema
    const meaning = Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : undefined
    if (type === "string" && isJson(meaning) && typeof meaning.type === "string" && meaning.type !== "string") {
      parameter.schema = meaning
    }
  }
}

/** Schemas nothing refers to are left out. */
const dropUnusedSchemas = (spec: Json) => {
  const components = child(spec, "components")
  const schemas = child(components, "schemas")
  const reachable = new Set<string>()
  const pending = [...refsIn({ ...spec, components: { ...components, schemas: {} } })]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reachable.has(name)) continue
    reachable.add(name)
    pending.push(...refsIn(schemas[name]))
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => reachable.has(name)))
}

/**
 * The passes that finish the generated document, in one place: what the annotations cannot say. Each
 * operation keeps only the errors it can answer with (the API declares the gateway's errors once, for all),
 * gets the headers the pipeline writes, its scope, examples, and every field a description.
 */
export const describeDocument = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  endpoints: HttpApi.HttpApi<Id, Groups>
) =>
(generated: Json): Json => {
  const facts = operationFacts(endpoints)
  const spec = withEventWebhooks(generated, child(child(generated, "components"), "schemas"))
  for (const { method, op } of operations(spec)) {
    const known = typeof op.operationId === "string" ? facts.get(op.operationId) : undefined
    if (known === undefined) continue
    withParameterMeanings(op)
    const allowed = allowedErrors(known, method, op)
    pruneErrors(op, allowed)
    addHeaders(op, method, known, allowed)
    withScope(op, known)
  }
  const components = child(spec, "components")
  components.headers = headerComponents
  components.parameters = parameterComponents
  spec.security = [{ bearer: [] }]
  // The package is private; an SPDX reference says so in the form the OpenAPI licence object expects.
  child(spec, "info").license = { name: "Proprietary", identifier: "LicenseRef-Proprietary" }
  mergeTags(spec)
  dropUnusedSchemas(spec)
  describeFields(spec)
  addExamples(spec)
  return spec
}
