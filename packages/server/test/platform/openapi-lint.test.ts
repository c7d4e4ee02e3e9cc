import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))
const redocly = path.join(repoRoot, "node_modules", "@redocly", "cli", "bin", "cli.js")

interface Spec {
  readonly servers: ReadonlyArray<{ readonly url: string }>
  readonly security: ReadonlyArray<Record<string, unknown>>
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly components: { readonly schemas: Record<string, unknown> }
  readonly paths: Record<string, Record<string, Operation>>
}

interface Operation {
  readonly summary?: string
  readonly description?: string
  readonly security?: ReadonlyArray<Record<string, unknown>>
  readonly parameters?: ReadonlyArray<{ readonly name?: string; readonly $ref?: string; readonly schema?: { readonly type?: string } }>
  readonly responses: Record<string, { readonly content?: Record<string, { readonly example?: unknown }>; readonly headers?: Record<string, unknown> }>
}

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly message: string }>
}

/** Redocly's CLI on the file, with the repository's configuration; offline (no telemetry, no update check). */
const lint = (file: string) =>
  Effect.promise(() =>
    new Promise<LintReport>((resolve, reject) => {
      execFile(
        process.execPath,
        [redocly, "lint", file, "--config", path.join(repoRoot, "redocly.yaml"), "--format=json", "--max-problems=100"],
        { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, maxBuffer: 1 << 24 },
        (_error, stdout) => {
          try {
            resolve(JSON.parse(stdout) as LintReport)
          } catch (cause) {
            reject(cause)
          }
        }
      )
    })
  )

const fetchSpec = Effect.gen(function*() {
  const api = yield* TestApi
  const res = yield* api.get("/openapi.json", { key: null })
  expect(res.status).toBe(200)
  return { text: res.text, spec: res.json<Spec>() }
})

const everyOperation = (spec: Spec) =>
  Object.entries(spec.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => ({ route, method, op })))

const errorStatuses = (op: Operation) => Object.keys(op.responses).filter((status) => Number(status) >= 400)

layer(TestApiLive, { excludeTestServices: true })("the OpenAPI description", (it) => {
  it.effect("passes Redocly's recommended rules with no error and no warning", () =>
    Effect.gen(function*() {
      const { text } = yield* fetchSpec
      const dir = yield* Effect.promise(() => mkdtemp(path.join(tmpdir(), "openapi-")))
      const file = path.join(dir, "openapi.json")
      yield* Effect.promise(() => writeFile(file, text))
      const report = yield* lint(file).pipe(Effect.ensuring(Effect.promise(() => rm(dir, { recursive: true }))))
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([])
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    }), 60_000)

  it.effect("explains every operation, tag and field", () =>
    Effect.gen(function*() {
      const { spec } = yield* fetchSpec
      for (const { method, op, route } of everyOperation(spec)) {
        expect(op.summary, `${method} ${route}`).toBeTruthy()
        expect(op.description, `${method} ${route}`).toBeTruthy()
        const success = Object.entries(op.responses).find(([status]) => Number(status) < 300)?.[1]
        expect(success?.content?.["application/json"]?.example, `${method} ${route}`).toBeDefined()
        expect(success?.headers?.["X-Request-Id"], `${method} ${route}`).toBeDefined()
        if (!route.startsWith("/health")) expect(errorStatuses(op).some((s) => s.startsWith("4")), route).toBe(true)
      }
      for (const tag of spec.tags) expect(tag.description, tag.name).toBeTruthy()
      expect(spec.tags.map((tag) => tag.name)).toContain("Holds and reservations")
      expect(spec.tags.map((tag) => tag.name)).not.toContain("ratePlanReads")
      const undescribed: Array<string> = []
      const visit = (node: unknown, where: string): void => {
        if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${where}[${i}]`))
        if (typeof node !== "object" || node === null) return
        const properties = (node as { properties?: Record<string, { description?: string; $ref?: string }> }).properties
        for (const [name, schema] of Object.entries(properties ?? {})) {
          if (schema.description === undefined) undescribed.push(`${where}.${name}`)
        }
        for (const [key, value] of Object.entries(node)) visit(value, `${where}.${key}`)
      }
      visit(spec.paths, "paths")
      expect(undescribed).toEqual([])
    }))

  it.effect("lists per operation only the errors it can answer with, and the headers it uses", () =>
    Effect.gen(function*() {
      const { spec, text } = yield* fetchSpec
      const live = spec.paths["/health/live"]?.get
      expect(live?.security).toEqual([])
      expect(errorStatuses(live ?? { responses: {} })).toEqual(["500"])
      expect(spec.security).toEqual([{ bearer: [] }])
      expect(spec.servers[0]?.url).toBe("http://127.0.0.1:3000")
      const get = spec.paths["/rate-plans/{id}"]?.get
      expect(get?.security).toEqual([{ bearer: [] }])
      expect(errorStatuses(get ?? { responses: {} })).toEqual(["400", "401", "403", "404", "429", "500", "503"])
      expect(JSON.stringify(get?.responses["404"])).toContain("rate_plan_not_found_error")
      expect(JSON.stringify(get?.responses["404"])).not.toContain("guest_not_found_error")
      // A stopping process answers what it could not finish in time 503 shutting_down.
      expect(JSON.stringify(get?.responses["503"])).toContain("shutting_down_error")
      expect(get?.responses["429"]?.headers?.["Retry-After"]).toBeDefined()
      expect(get?.responses["200"]?.headers?.["X-RateLimit-Remaining"]).toBeDefined()
      const hold = spec.paths["/holds"]?.post
      expect(hold?.parameters?.map((parameter) => parameter.$ref)).toContain("#/components/parameters/IdempotencyKey")
      expect(hold?.responses["409"]?.headers?.["Retry-After"]).toBeDefined()
      const limit = spec.paths["/reservations"]?.get?.parameters?.find((parameter) => parameter.name === "limit")
      expect(limit?.schema?.type).toBe("integer")
      expect(Object.keys(spec.components.schemas)).not.toContain("Issue")
      expect(text).toContain("\"format\":\"uuid\"")
      expect(text).toContain("\"format\":\"date-time\"")
      expect(text).toContain("\"format\":\"date\"")
    }))
})
