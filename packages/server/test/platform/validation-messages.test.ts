import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly param?: string }
}

const uuid = "00000000-0000-4000-8000-000000000000"

/** Bad inputs across endpoints: what is sent, the `param` expected, and words the message must carry. */
const cases: ReadonlyArray<{
  readonly name: string
  readonly send: (api: TestApiService) => ReturnType<TestApiService["get"]>
  readonly param: string | undefined
  readonly says: string
}> = [
  { name: "missing field", send: (api) => api.post("/guests", { last_name: "Lovelace" }), param: "first_name", says: "first_name is required" },
  { name: "wrong type", send: (api) => api.post("/guests", { first_name: 12, last_name: "L" }), param: "first_name", says: "first_name must be a string" },
  {
    name: "not a uuid",
    send: (api) => api.post("/holds", { room_type_id: "x", rate_plan_id: uuid, check_in: "2031-06-01", check_out: "2031-06-03", guest_id: uuid, adults: 2 }),
    param: "room_type_id",
    says: "room_type_id must be a UUID"
  },
  {
    name: "out of range",
    send: (api) => api.post("/holds", { room_type_id: uuid, rate_plan_id: uuid, check_in: "2031-06-01", check_out: "2031-06-03", guest_id: uuid, adults: 0 }),
    param: "adults",
    says: "adults must be a whole number from 1 to 20"
  },
  { name: "query integer", send: (api) => api.get("/reservations?limit=abc"), param: "limit", says: "limit must be" },
  { name: "query repeated", send: (api) => api.get("/reservations?limit=5&limit=6"), param: "limit", says: "limit must be given only once" },
  { name: "query date", send: (api) => api.get("/availability?start_date=tomorrow&end_date=2031-06-03"), param: "start_date", says: "start_date must be" },
  { name: "body not an object", send: (api) => api.post("/guests", [1, 2]), param: undefined, says: "must be a JSON object" }
]

layer(TestApiLive, { excludeTestServices: true })("validation messages", (it) => {
  for (const c of cases) {
    it.effect(`${c.name}: a message a person can act on`, () =>
      Effect.gen(function*() {
        const api = yield* TestApi
        const res = yield* c.send(api)
        expect(res.status, res.text).toBe(400)
        const { error } = res.json<ErrorBody>()
        expect(error.code).toBe("invalid_parameters")
        expect(error.param).toBe(c.param)
        expect(error.message).toContain(c.says)
        expect(error.message).not.toMatch(/Expected \{|readonly|\||actual/)
      }))
  }
})
