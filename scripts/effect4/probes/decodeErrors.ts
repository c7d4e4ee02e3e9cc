import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { Text, Uuid, NonNegativeInt } from "@hotel/domain/common/Schemas"

class InvalidParameters extends Schema.TaggedError<InvalidParameters>()("InvalidParameters", {
  message: Schema.String, param: Schema.optional(Schema.String)
}, { httpApiStatus: 400 }) {}

const Body = Schema.Struct({
  name: Text.check(Schema.makeFilter((s) => s.length <= 3, { message: "must be at most 3 characters" })),
  items: Schema.Array(Schema.Struct({ qty: NonNegativeInt }))
})

class DecodeErrors extends HttpApiMiddleware.Service<DecodeErrors>()("DecodeErrors", { error: InvalidParameters }) {}

const Things = HttpApiGroup.make("things").add(
  HttpApiEndpoint.post("create", "/things/:id", { params: { id: Uuid }, payload: Body, success: Schema.Struct({ ok: Schema.Boolean }) })
)
const Api = HttpApi.make("probe").add(Things).middleware(DecodeErrors)

const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => issue._tag === "MissingKey" ? "is required" : issue._tag === "UnexpectedKey" ? "is not allowed" : SchemaIssue.defaultLeafHook(issue)
})
const segment = (s: PropertyKey | { readonly key: PropertyKey }) => (typeof s === "object" ? s.key : s)
const paramPath = (path: ReadonlyArray<PropertyKey>) =>
  path.reduce<string>((acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc.length === 0 ? String(key) : `${acc}.${String(key)}`, "")

const DecodeErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(DecodeErrors, (error, { endpoint }) => {
  const first = formatter(error.cause.issue).issues[0]
  const param = paramPath((first?.path ?? []).map(segment))
  return Effect.fail(new InvalidParameters({ message: `${param} ${first?.message ?? "is invalid"} [${error.kind} on ${endpoint.path}]`, param }))
})

const ThingsLive = HttpApiBuilder.group(Api, "things", (h) => h.handle("create", () => Effect.succeed({ ok: true })))
const Routes = HttpApiBuilder.layer(Api).pipe(Layer.provide(ThingsLive), Layer.provide(DecodeErrorsLive))
const { handler, dispose } = HttpRouter.toWebHandler(Routes.pipe(Layer.provide(HttpServer.layerServices)), { disableLogger: true })

const id = "0b9c1e1e-1111-4111-8111-111111111111"
const call = async (path: string, body: string) => {
  const res = await handler(new Request(`http://x${path}`, { method: "POST", body, headers: { "content-type": "application/json" } }))
  console.log(res.status, await res.text())
}
await call(`/things/${id}`, JSON.stringify({ name: "ab", items: [{ qty: 1 }] }))
await call(`/things/${id}`, JSON.stringify({ name: "abcd", items: [] }))
await call(`/things/${id}`, JSON.stringify({ name: "ab", items: [{ qty: 1 }, { qty: -1 }] }))
await call(`/things/${id}`, JSON.stringify({ name: "ab" }))
await call(`/things/${id}`, JSON.stringify({ name: 5, items: [] }))
await call(`/things/not-a-uuid`, JSON.stringify({ name: "ab", items: [] }))
await call(`/things/${id}`, "{not json")
await call(`/things/${id}`, JSON.stringify({ name: "ab", items: [], extra: 1 }))
await dispose()
