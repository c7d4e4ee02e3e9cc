import { child, isJson, type Json, operations } from "./Spec.js"

// Examples built from the schemas themselves, so they always match what they illustrate.

const byFormat: Record<string, string> = {
  uuid: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  date: "2031-06-01",
  "date-time": "2031-05-20T14:00:00.000Z",
  uri: "https://example.com/hooks/hotel"
}

const byPattern: Record<string, string> = {
  "^-?\\d+(\\.\\d+)?$": "120.00",
  "^[A-Z]{3}$": "EUR",
  "^req_[0-9a-f]{32}$": "req_4f2a9c1e7b3d4f2a9c1e7b3d4f2a9c1e",
  "^evt_[0-9a-f]{32}$": "evt_0c8f3e5a9b2d4c6e8f1a3b5c7d9e0f2a"
}

const scalar = (schema: Json): unknown => {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (Array.isArray(schema.enum)) return schema.enum[0]
  if (schema.const !== undefined) return schema.const
  switch (schema.type) {
    case "string":
      return (typeof schema.format === "string" ? byFormat[schema.format] : undefined) ??
        (typeof schema.pattern === "string" ? byPattern[schema.pattern] : undefined) ?? "text"
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? Math.max(schema.minimum, 1) : 1
    case "boolean":
      return true
    case "null":
      return null
    default:
      // An open schema (`unknown`): any JSON value fits; an empty object is the neutral one.
      return schema.type === undefined && schema.items === undefined ? {} : undefined
  }
}

/** An example value of `schema`, resolving `$ref`s against the document's components. */
export const exampleOf = (schema: unknown, schemas: Json, depth = 0): unknown => {
  if (!isJson(schema) || depth > 12) return undefined
  if (typeof schema.$ref === "string") {
    return exampleOf(schemas[schema.$ref.split("/").pop() ?? ""], schemas, depth + 1)
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
  if (alternatives !== undefined) {
    const options = alternatives.filter((option) => !(isJson(option) && option.type === "null"))
    return exampleOf(options[0] ?? alternatives[0], schemas, depth + 1)
  }
  if (isJson(schema.properties)) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, exampleOf(property, schemas, depth + 1)])
    )
  }
  if (schema.type === "array") {
    const item = exampleOf(schema.items, schemas, depth + 1)
    return item === undefined ? [] : [item]
  }
  return scalar(schema)
}

const withExample = (content: unknown, schemas: Json) => {
  if (!isJson(content)) return
  for (const media of Object.values(content)) {
    if (isJson(media) && media.example === undefined && media.schema !== undefined) {
      media.example = exampleOf(media.schema, schemas)
    }
  }
}

/** An example on every request body and response of every operation. */
export const addExamples = (spec: Json): void => {
  const schemas = child(child(spec, "components"), "schemas")
  for (const { op } of operations(spec)) {
    if (isJson(op.requestBody)) withExample(op.requestBody.content, schemas)
    for (const response of Object.values(child(op, "responses"))) {
      if (isJson(response)) withExample(response.content, schemas)
    }
  }
}
