import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as SqlClient from "effect/sql/SqlClient"
import { NoAvailability } from "@hotel/domain"
import { HotelApi } from "@hotel/api/Api"
import * as Errors from "@hotel/api/common/Errors"
import { apiWith, serveApi } from "@hotel/http/HttpLive"
import { withRequestPipeline } from "@hotel/api/common/Pipeline"
import { RequiredScope } from "@hotel/api/common/Security"
import { created } from "@hotel/api/common/Common"
import type { PlatformInMemory } from "@hotel/persistence/platform/Platform"
import { PlatformLive } from "@hotel/persistence/platform/Platform"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { FeaturesLive, servicesWith } from "../../src/main.js"

// A test-only endpoint served with the whole API behind the real gateway: a mutation whose speed and
// failures the test controls, to observe what the idempotency step does around a handler.

export const ProbeRun = Schema.Struct({
  /** Runs with the same label count their attempts. */
  label: Schema.String,
  /** Sleep this long before answering (to overlap concurrent requests). */
  delay_ms: Schema.optional(Schema.Int),
  /**
   * `conflict`: 409 `no_availability` every time; `conflict_first`: only on the label's first attempt;
   * `defect`: a 500.
   */
  fail: Schema.optional(Schema.Literals(["conflict", "conflict_first", "defect"]))
})

export const ProbeRunCreated = Schema.Struct({
  run_id: Schema.String,
  label: Schema.String,
  attempt: Schema.Int
})

export class ProbeGroup extends HttpApiGroup.make("probe")
  .add(
    HttpApiEndpoint.post("run", "/probe/runs", {
      disableCodecs: true,
      payload: ProbeRun,
      success: created(ProbeRunCreated),
      error: Errors.NoAvailability
    })
  )
  .annotate(RequiredScope, "rates:write")
{}

/** `HotelApi` plus `POST /probe/runs`, behind the same request pipeline. */
export class ProbeApi extends HotelApi.addHttpApi(withRequestPipeline(HttpApi.make("hotel").add(ProbeGroup))) {}

/** Every attempt is a row in `probe_attempts`; every success a row in `probe_runs`. */
const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE IF NOT EXISTS probe_attempts (label text NOT NULL, at timestamptz NOT NULL DEFAULT now())`
    yield* sql`CREATE TABLE IF NOT EXISTS probe_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      label text NOT NULL,
      attempt integer NOT NULL
    )`
    return handlers.handle("run", ({ payload }) =>
      Effect.gen(function*() {
        // An attempt is recorded outside the request's transaction (which a failure rolls back), so that
        // the tests see every time the handler ran.
        const [{ attempts }] = yield* sql<{ attempts: number }>`
          WITH attempt AS (INSERT INTO probe_attempts (label) VALUES (${payload.label}) RETURNING 1)
          SELECT count(*)::int + 1 AS attempts FROM probe_attempts WHERE label = ${payload.label}`.pipe(
          Effect.updateContext((context: Context.Context<never>) => Context.omit(sql.transactionService)(context))
        )
        if (payload.delay_ms !== undefined) yield* Effect.sleep(payload.delay_ms)
        if (payload.fail === "defect") return yield* Effect.die(new Error("probe defect"))
        if (payload.fail === "conflict" || (payload.fail === "conflict_first" && attempts === 1)) {
          return yield* new NoAvailability({ message: "probe conflict" })
        }
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO probe_runs (label, attempt) VALUES (${payload.label}, ${attempts}) RETURNING id`
        return { run_id: row?.id ?? "", label: payload.label, attempt: attempts }
      }).pipe(Effect.catchTag("SqlError", Effect.die)))
  }).pipe(Effect.orDie))

const ProbeApiLive = apiWith(ProbeApi, Layer.merge(FeaturesLive, ProbeHandlers))

/** The probe API served like `HttpLive`, with the given platform layers (Postgres by default). */
export const ProbeHttpLive = (platform: typeof PlatformLive | typeof PlatformInMemory = PlatformLive) =>
  serveApi(ProbeApiLive).pipe(Layer.provide(servicesWith(platform)))
