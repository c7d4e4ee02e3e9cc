import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { expect } from "@effect/vitest"
import { HotelApi } from "@hotel/api"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { ApiResponse } from "./http.js"

// The tests' typed client: derived from `HotelApi`, so request and response types come from the contract's
// schemas rather than from interfaces re-typed by hand. It encodes (and so validates) inputs locally, decodes a
// success only at its declared status, and decodes every declared error back into its class. Raw requests
// (`http.ts`) stay for deliberately malformed input and for asserting the exact wire bytes of errors.

export interface ClientOptions {
  /** Extra request headers (an `Idempotency-Key`, `X-Forwarded-For`...). */
  readonly headers?: Record<string, string>
}

/** A client of the API at `baseUrl` calling with `key` (`null`: no Authorization header). */
export const makeClient = (baseUrl: string, key: string | null, options: ClientOptions = {}) =>
  HttpApiClient.make(HotelApi, {
    baseUrl,
    transformClient: HttpClient.mapRequest((request) => {
      const withKey = key === null ? request : HttpClientRequest.bearerToken(request, key)
      return options.headers === undefined ? withKey : HttpClientRequest.setHeaders(withKey, options.headers)
    })
  }).pipe(Effect.provide(FetchHttpClient.layer))

export type HotelClient = Effect.Success<ReturnType<typeof makeClient>>

/** What every decoded API error carries (the envelope's `message` and, for field errors, `param`). */
interface DecodedError {
  readonly _tag: string
  readonly message: string
  readonly param?: string | undefined
}

/**
 * Runs a call that must fail with `errorClass` (and, when given, exactly that `param`; absent otherwise) and
 * returns the decoded error. The class fixes the status, `type` and `code` the client matched on the wire.
 */
export const expectFailure = <A, E, R, T extends DecodedError>(
  effect: Effect.Effect<A, E, R>,
  errorClass: new(...args: never) => T,
  param?: string
): Effect.Effect<T, never, R> =>
  Effect.flatMap(Effect.result(effect), (result) => {
    if (result._tag === "Success") {
      return Effect.die(new Error(`expected ${errorClass.name}, got a success: ${JSON.stringify(result.success)}`))
    }
    const error = result.failure
    expect(error, String(error)).toBeInstanceOf(errorClass)
    const typed = error as unknown as T
    if (param === undefined) expect(typed.param, typed.message).toBeUndefined()
    else expect(typed.param, typed.message).toBe(param)
    return Effect.succeed(typed)
  })

/** A raw response's body decoded with the contract's schema (so a raw test is typed by the contract too). */
export const bodyAs = <S extends Schema.Decoder<unknown>>(res: ApiResponse, schema: S): S["Type"] => Schema.decodeUnknownSync(schema)(
  JSON.parse(res.text)
)

/** The per-call options of the builders (`http.ts`'s `key` and `headers`) as a typed client. */
export const clientOf = (
  api: { readonly client: HotelClient; readonly clientFor: (key: string | null, options?: ClientOptions) => Effect.Effect<HotelClient>; readonly key: string },
  options: { readonly key?: string | null; readonly headers?: Record<string, string> } = {}
): Effect.Effect<HotelClient> =>
  options.key === undefined && options.headers === undefined
    ? Effect.succeed(api.client)
    : api.clientFor(options.key === undefined ? api.key : options.key, options.headers === undefined ? {} : { headers: options.headers })
