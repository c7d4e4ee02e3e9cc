import { expect, layer } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import * as Effect from "effect/Effect"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { outsideEnv, runOk } from "../utils/commands.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// What a generator needs of `GET /openapi.json`: a document a strict JSON Schema validator compiles whole, a
// named component for every body, and types that type-check a real program and describe what the server
// answers.

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))

type Json = { readonly [key: string]: unknown }

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

interface Operation {
  readonly operationId: string
  readonly parameters?: ReadonlyArray<Json>
  readonly requestBody?: { readonly content: Record<string, { readonly schema: Json }> }
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: Json }> }>
}

interface Spec {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Json>; readonly parameters: Record<string, Json> }
}

const fetchSpec = Effect.gen(function*() {
  const api = yield* TestApi
  const res = yield* api.get("/openapi.json", { key: null })
  expect(res.status).toBe(200)
  return { text: res.text, spec: res.json<Spec>() }
})

const operationsOf = (spec: Spec) =>
  Object.entries(spec.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${route}`, op })))

const documentId = "https://hotel.invalid/openapi.json"

/**
 * Ajv 2020 in strict mode with the document's components as one schema resource. `discriminator` is a keyword
 * of OpenAPI's vocabulary, not of JSON Schema: registered as the annotation it is (Ajv's own reading of it
 * refuses the `mapping` that generators need).
 */
const compileDocument = (text: string) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats(ajv)
  ajv.addKeyword("discriminator")
  const spec = JSON.parse(text.replaceAll("#/components/schemas/", `${documentId}#/$defs/`)) as Spec
  ajv.addSchema({ $id: documentId, $defs: spec.components.schemas })
  const validators = Object.keys(spec.components.schemas).map((name) => [name, ajv.compile({ $ref: `${documentId}#/$defs/${name}` })] as const)
  return { ajv, validators: new Map(validators) }
}

const ref = (schema: Json | undefined): string | undefined =>
  typeof schema?.$ref === "string" ? schema.$ref.split("/").pop() : undefined

/** A small program against the generated types: a guest, a quote, a hold with an Idempotency-Key and its replay. */
const program = `import createClient from "openapi-fetch"
import type { components, paths } from "./schema.js"

type Offer = components["schemas"]["Offer"]

const client = createClient<paths>({
  baseUrl: process.env.HOTEL_URL ?? "",
  headers: { Authorization: \`Bearer \${process.env.HOTEL_KEY ?? ""}\` }
})
const stay = { check_in: "2031-03-10", check_out: "2031-03-13" }

const created = await client.POST("/guests", { body: { first_name: "Grace", last_name: "Hopper" } })
if (created.data === undefined) throw new Error(JSON.stringify(created.error))
const guestId: string = created.data.guest_id

const quote = await client.GET("/rates", { params: { query: { ...stay, adults: 2 } } })
if (quote.data === undefined) throw new Error(JSON.stringify(quote.error))
const offer: Offer | undefined = quote.data.data.find((candidate) => candidate.bookable)
if (offer === undefined) throw new Error("no bookable offer")

const key = crypto.randomUUID()
const hold = () =>
  client.POST("/holds", {
    params: { header: { "Idempotency-Key": key } },
    body: { ...stay, guest_id: guestId, room_type_id: offer.room_type_id, rate_plan_id: offer.rate_plan_id, adults: 2 }
  })
const first = await hold()
const again = await hold()
if (first.data === undefined || again.data === undefined) throw new Error(JSON.stringify(first.error ?? again.error))

const events = await client.GET("/events", { params: { query: { types: "reservation.held" } } })
if (events.data === undefined) throw new Error(JSON.stringify(events.error))
const held = events.data.data.flatMap((event) => (event.type === "reservation.held" ? [event.data.id] : []))

console.log(JSON.stringify({
  guest_id: guestId,
  offer_total: offer.total,
  reservation_id: first.data.reservation_id,
  replayed: again.response.headers.get("idempotent-replayed"),
  same_reservation: again.data.reservation_id === first.data.reservation_id,
  held_event: held.includes(first.data.reservation_id)
}))
`

layer(TestApiLive, { excludeTestServices: true })("the OpenAPI description, to generators", (it) => {
  it.effect("compiles in Ajv 2020 strict mode, and validates what the server answers", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { text, spec } = yield* fetchSpec
      const { validators } = compileDocument(text)
      expect(validators.size).toBe(Object.keys(spec.components.schemas).length)

      const guest = yield* api.post("/guests", { first_name: "Ada", last_name: "Lovelace" })
      const read = yield* api.get(`/guests/${guest.json<{ guest_id: string }>().guest_id}`)
      const missing = yield* api.get("/guests/00000000-0000-4000-8000-000000000000")
      const events = yield* api.get("/events?types=guest.created")
      for (const [name, res] of [["GuestCreated", guest], ["Guest", read], ["guest_not_found_error", missing], ["EventPage", events]] as const) {
        const validate = validators.get(name)
        expect(validate?.(res.json()), `${name}: ${JSON.stringify(validate?.errors)}`).toBe(true)
      }
    }))

  it.effect("names every request and success body, and says what every write accepts", () =>
    Effect.gen(function*() {
      const { spec } = yield* fetchSpec
      const inline = operationsOf(spec).flatMap(({ where, op }) => [
        ...Object.entries(op.responses)
          .filter(([status, response]) => status.startsWith("2") && response.content !== undefined)
          .flatMap(([status, response]) => (ref(response.content?.["application/json"]?.schema) === undefined ? [`${where} ${status}`] : [])),
        ...(op.requestBody !== undefined && ref(op.requestBody.content["application/json"]?.schema) === undefined ? [`${where} body`] : [])
      ])
      expect(inline).toEqual([])
      for (const name of ["Reservation", "Guest", "Offer", "Booking", "Folio", "RatePlan", "Block", "EventPage"]) {
        expect(spec.components.schemas).toHaveProperty(name)
      }

      // A PATCH's immutable keys: typed as the value the create body takes, described as refused.
      const schemas = spec.components.schemas
      const property = (schema: string, key: string) => (isJson(schemas[schema]?.properties) ? schemas[schema].properties : {})[key]
      expect(property("RatePlanPatch", "room_type_id")).toMatchObject({ type: "string", format: "uuid", description: expect.stringMatching(/^Not accepted: /) })
      expect(property("PromoCodePatch", "code")).toMatchObject({ type: "string", description: expect.stringMatching(/^Not accepted: /) })

      // The feed's items: one component per event type, told apart by `type`.
      const items = (property("EventPage", "data") as Json).items as { oneOf: ReadonlyArray<Json>; discriminator: Json }
      expect(items.discriminator).toMatchObject({ propertyName: "type", mapping: { "reservation.held": "#/components/schemas/ReservationHeldEvent" } })
      expect(items.oneOf.map(ref)).toContain("ReservationHeldEvent")
      expect(property("ReservationHeldEvent", "data")).toMatchObject({ $ref: "#/components/schemas/Reservation" })

      // The envelope says what its fields mean.
      const envelope = property("guest_not_found_error", "error") as { properties: Record<string, Json>; description: string }
      expect(envelope.description).toMatch(/^The failure/)
      expect(envelope.properties.type?.description).toMatch(/^The error's category/)

      for (const { where, op } of operationsOf(spec)) {
        const headers = (op.parameters ?? []).flatMap((parameter) =>
          typeof parameter.$ref === "string" ? [String(spec.components.parameters[parameter.$ref.split("/").pop() ?? ""]?.name)]
          : parameter.in === "header" ? [String(parameter.name)] : [])
        // Header names are written one way: each word capitalised.
        expect(headers.filter((name) => !/^[A-Z][a-z]*(-[A-Z][a-z]*)*$/.test(name)), where).toEqual([])
        const errors = Object.entries(op.responses).flatMap(([, response]) =>
          JSON.stringify(response.content ?? {}).match(/[a-z_]+_error(?=")/g) ?? [])
        const isPublic = where.includes("/health/") || where.endsWith("/openapi.json") || where.endsWith("/docs")
        if (/^(POST|PATCH|PUT|DELETE) /.test(where)) expect(headers, where).toContain("Idempotency-Key")
        // Every authenticated request reads its key's rate-limit bucket in the database; readiness asks it.
        expect(errors.includes("database_busy_error"), where).toBe(!isPublic || where === "GET /health/ready")
      }
    }))

  it.effect("types from openapi-typescript type-check a client under --strict and describe the real answers", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { text } = yield* fetchSpec
      // Inside the repository (its ignored build/, not node_modules, where Node strips no types), so the program
      // finds openapi-fetch in the repository's node_modules.
      const cache = path.join(repoRoot, "build")
      yield* Effect.promise(() => mkdir(cache, { recursive: true }))
      yield* Effect.acquireUseRelease(
        Effect.promise(() => mkdtemp(path.join(cache, "openapi-client-"))),
        (dir) =>
          Effect.gen(function*() {
            yield* Effect.promise(() => writeFile(path.join(dir, "openapi.json"), text))
            yield* Effect.promise(() => writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" })))
            yield* Effect.promise(() => writeFile(path.join(dir, "program.ts"), program))
            const generator = path.join(repoRoot, "node_modules", "openapi-typescript", "bin", "cli.js")
            yield* runOk(process.execPath, [generator, "openapi.json", "--output", "schema.d.ts"], { cwd: dir, env: outsideEnv() })
            const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc")
            yield* runOk(process.execPath, [
              tsc, "--strict", "--noEmit", "--noUncheckedIndexedAccess", "--exactOptionalPropertyTypes",
              "--module", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--types", "node", "program.ts"
            ], { cwd: dir, env: outsideEnv() })
            const output = yield* runOk(process.execPath, ["program.ts"], {
              cwd: dir,
              env: outsideEnv({ HOTEL_URL: api.baseUrl, HOTEL_KEY: api.key })
            })
            expect(JSON.parse(output)).toMatchObject({ replayed: "true", same_reservation: true, held_event: true })
          }),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
      )
    }), 120_000)
})
