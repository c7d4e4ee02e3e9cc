import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// The reference is complete: every parameter says what it is, and every id (in a path, a query, a body or an
// answer) says its form, a format or a pattern, so a generated client can validate it.

type Json = { readonly [key: string]: unknown }

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const isIdName = (name: string) => name === "id" || name.endsWith("_id") || name.endsWith("_ids")

/** The schema `schema` names, following `$ref`s into the document's components. */
const resolve = (document: Json, schema: unknown): Json => {
  let current = schema
  for (let hops = 0; isJson(current) && typeof current["$ref"] === "string" && hops < 20; hops++) {
    const path = current["$ref"].replace(/^#\//, "").split("/")
    current = path.reduce<unknown>((node, key) => (isJson(node) ? node[key] : undefined), document)
  }
  return isJson(current) ? current : {}
}

/** The alternatives a schema allows (itself, or the members of its `anyOf`/`oneOf`), resolved. */
const alternatives = (document: Json, schema: unknown): ReadonlyArray<Json> => {
  const resolved = resolve(document, schema)
  const members = [resolved["anyOf"], resolved["oneOf"]].flatMap((list) => (Array.isArray(list) ? list : []))
  return members.length > 0 ? members.flatMap((member) => alternatives(document, member)) : [resolved]
}

/** Where an id's schema (or an array of ids' items) is a string with neither a format nor a pattern. */
const unformattedIds = (document: Json, schema: unknown, where: string, seen: Set<unknown>): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const alternative of alternatives(document, schema)) {
    if (seen.has(alternative)) continue
    seen.add(alternative)
    const properties = isJson(alternative["properties"]) ? alternative["properties"] : {}
    for (const [name, property] of Object.entries(properties)) {
      if (isIdName(name)) {
        for (const option of alternatives(document, property)) {
          const value = option["type"] === "array" ? resolve(document, option["items"]) : option
          if (value["type"] === "string" && value["format"] === undefined && value["pattern"] === undefined) {
            found.push(`${where}.${name}`)
          }
        }
      }
      found.push(...unformattedIds(document, property, `${where}.${name}`, seen))
    }
    if (alternative["items"] !== undefined) found.push(...unformattedIds(document, alternative["items"], `${where}[]`, seen))
  }
  return found
}

interface Operation {
  readonly where: string
  readonly operation: Json
}

const operationsOf = (document: Json): ReadonlyArray<Operation> => {
  const paths = isJson(document["paths"]) ? document["paths"] : {}
  return Object.entries(paths).flatMap(([path, item]) =>
    isJson(item)
      ? Object.entries(item).flatMap(([method, operation]) =>
        isJson(operation) ? [{ where: `${method.toUpperCase()} ${path}`, operation }] : []
      )
      : []
  )
}

const parametersOf = (document: Json, operation: Json): ReadonlyArray<Json> =>
  (Array.isArray(operation["parameters"]) ? operation["parameters"] : []).map((parameter) => resolve(document, parameter))

const bodySchemas = (operation: Json): ReadonlyArray<{ readonly part: string; readonly schema: unknown }> => {
  const contentOf = (holder: unknown) => {
    const content = isJson(holder) && isJson(holder["content"]) ? holder["content"] : {}
    const json = content["application/json"]
    return isJson(json) ? [json["schema"]] : []
  }
  const responses = isJson(operation["responses"]) ? operation["responses"] : {}
  return [
    ...contentOf(operation["requestBody"]).map((schema) => ({ part: "body", schema })),
    ...Object.entries(responses).flatMap(([status, response]) => contentOf(response).map((schema) => ({ part: status, schema })))
  ]
}

layer(TestApiLive, { excludeTestServices: true })("the API reference", (it) => {
  it.effect("every parameter of every operation has a description", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.get("/openapi.json", { key: null })
      expect(res.status).toBe(200)
      const document = JSON.parse(res.text) as Json
      const operations = operationsOf(document)
      expect(operations.length).toBeGreaterThan(30)
      const parameters = operations.flatMap(({ operation, where }) =>
        parametersOf(document, operation).map((parameter) => ({ where, parameter }))
      )
      expect(parameters.length).toBeGreaterThan(50)
      const undescribed = parameters
        .filter(({ parameter }) => typeof parameter["description"] !== "string" || parameter["description"].trim() === "")
        .map(({ parameter, where }) => `${where} ${String(parameter["in"])} ${String(parameter["name"])}`)
      expect(undescribed).toEqual([])
    }))

  it.effect("every id in a path, a query, a body or an answer declares a format or a pattern", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const document = JSON.parse((yield* api.get("/openapi.json", { key: null })).text) as Json
      const seen = new Set<unknown>()
      const missing = operationsOf(document).flatMap(({ operation, where }) => [
        ...parametersOf(document, operation)
          .filter((parameter) => typeof parameter["name"] === "string" && isIdName(parameter["name"]))
          .filter((parameter) => {
            const schema = resolve(document, parameter["schema"])
            return schema["format"] === undefined && schema["pattern"] === undefined
          })
          .map((parameter) => `${where} ${String(parameter["in"])} ${String(parameter["name"])}`),
        ...bodySchemas(operation).flatMap(({ part, schema }) => unformattedIds(document, schema, `${where} ${part}`, seen))
      ])
      expect(missing).toEqual([])
    }))

  it.effect("finds an id without a form, and takes a format or a pattern as one", () => Effect.sync(() => {
    const document: Json = {
      components: { schemas: { Ref: { type: "object", properties: { guest_id: { type: "string" } } } } }
    }
    expect(unformattedIds(document, { $ref: "#/components/schemas/Ref" }, "x", new Set())).toEqual(["x.guest_id"])
    expect(unformattedIds(document, {
      type: "object",
      properties: {
        id: { type: "string", format: "uuid" },
        event_id: { type: "string", pattern: "^evt_" },
        room_ids: { type: "array", items: { type: "string" } }
      }
    }, "y", new Set())).toEqual(["y.room_ids"])
  }))
})
