import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"

// FiberRef -> Context.Reference: a per-request value with a default, read where no service is provided.
const CurrentRequestId = Context.Reference<string>("probe/CurrentRequestId", { defaultValue: () => "req_unknown" })

class Conflict extends Schema.TaggedError<Conflict>()("Conflict", { message: Schema.String }) {}
const Wire = Schema.Struct({ error: Schema.Struct({ code: Schema.String, message: Schema.String, request_id: Schema.String }) })
const ConflictWire = Wire.pipe(
  Schema.decodeTo(Schema.toType(Conflict), {
    decode: SchemaGetter.transform(({ error }) => new Conflict({ message: error.message })),
    encode: SchemaGetter.transformEffect((e: Conflict) =>
      Effect.map(Effect.service(CurrentRequestId), (id) => ({ error: { code: "conflict", message: e.message, request_id: id } })))
  }),
  Schema.annotate({ httpApiStatus: 409 })
)

const G = HttpApiGroup.make("g").add(HttpApiEndpoint.get("boom", "/boom", { success: Schema.String, error: ConflictWire }))
const Api = HttpApi.make("p").add(G)
const GLive = HttpApiBuilder.group(Api, "g", (h) => h.handle("boom", () => Effect.fail(new Conflict({ message: "taken" }))))
const RequestIds = HttpRouter.middleware((httpEffect) =>
  Effect.provideService(httpEffect, CurrentRequestId, "req_123").pipe(Effect.map(HttpServerResponse.setHeader("x-request-id", "req_123"))), { global: true })
const App = Layer.mergeAll(HttpApiBuilder.layer(Api).pipe(Layer.provide(GLive)), RequestIds)
const { handler, dispose } = HttpRouter.toWebHandler(App.pipe(Layer.provide(HttpServer.layerServices)), { disableLogger: true })
const res = await handler(new Request("http://x/boom"))
console.log(res.status, res.headers.get("x-request-id"), await res.text())
await dispose()
