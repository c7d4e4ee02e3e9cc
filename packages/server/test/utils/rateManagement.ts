import { expect } from "@effect/vitest"
import type { Rates } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { clientOf } from "./client.js"
import type { ApiResponse, ErrorBody } from "./http.js"
import type { TestApiService } from "./TestServer.js"

// Assertions and small builders shared by the rate-management tests (rate plans, intervals, inclusions, codes)
// and the quote reads (rates, availability).

/** The failure envelope: status, `type`, `code`, and `param` exactly (absent when not given). */
export const expectError = (res: ApiResponse, status: number, type: string, code: string, param?: string) => {
  const body = res.text
  expect(res.status, body).toBe(status)
  const { error } = res.json<ErrorBody>()
  expect(error.type, body).toBe(type)
  expect(error.code, body).toBe(code)
  if (param === undefined) expect(error, body).not.toHaveProperty("param")
  else expect(error.param, body).toBe(param)
  expect(error.request_id).toMatch(/^req_/)
  return error
}

/** The failure envelope's status, `code`, and `param` exactly (absent when not given); nothing else. */
export const expectErrorCode = (res: ApiResponse, status: number, code: string, param?: string) => {
  expect(res.status, res.text).toBe(status)
  const { error } = res.json<ErrorBody>()
  expect(error.code).toBe(code)
  if (param === undefined) expect(error).not.toHaveProperty("param")
  else expect(error.param).toBe(param)
}

export const expectInvalid = (res: ApiResponse, param: string) =>
  expectError(res, 400, "invalid_request", "invalid_parameters", param)

export const expectStatus = (res: ApiResponse, status: number) => {
  expect(res.status, res.text).toBe(status)
  return res
}

/** A 200 list envelope's `data`. */
export const dataOf = <T>(res: ApiResponse): ReadonlyArray<T> => {
  expect(res.status, res.text).toBe(200)
  return res.json<{ data: ReadonlyArray<T> }>().data
}

/** `path?params`, each value as text. */
export const withQuery = (path: string, params: Record<string, string | number | boolean>) =>
  `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`

export const missingId = "00000000-0000-4000-8000-000000000000"

/** Creates a rate plan through the API on the fixture's DBL room type (or the body's); returns its id. */
export const createPlan = (api: TestApiService, body: Partial<Rates.RatePlan.RatePlanCreate> = {}, key?: string) =>
  Effect.flatMap(clientOf(api, key === undefined ? {} : { key }), (client) =>
    client.ratePlanWrites.create({ headers: {},
      payload: { room_type_id: api.property.room_types["DBL"], name: "Test plan", base_price: "100.00", ...body }
    })).pipe(Effect.map((created) => created.rate_plan_id))

/** Creates a seasonal interval on a plan through the API; returns its id. */
export const createInterval = (api: TestApiService, planId: string, body: Rates.Interval.IntervalCreate) =>
  api.client.intervals.create({ headers: {}, params: { id: planId }, payload: body }).pipe(
    Effect.map((created) => created.interval_id)
  )
