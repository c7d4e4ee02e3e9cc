import type * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { ApiErrors, Authorization, RequestBody } from "./Security.js"

// The framework wraps each middleware around the ones declared before it, so the one that runs first is
// declared last; these are the only places that know it.

/**
 * `api` answering the errors every endpoint may meet (`ApiErrors`, around everything else): the groups
 * outside the request pipeline (the health checks, `/me`) apply it themselves.
 */
export const withApiErrors = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) =>
  api.middleware(ApiErrors)

/**
 * The request pipeline of every authenticated endpoint, declared once, in the order it runs (see
 * docs/ARCHITECTURE.md): `Authorization` (the key, its rate limit, the endpoint's scope), then `RequestBody`
 * (the body's size and syntax, the `Idempotency-Key` claim; with a key the handler runs in the transaction that
 * holds it), all inside `ApiErrors`. `Api.ts` applies it to every feature's groups but the health checks and
 * `/me`.
 */
export const withRequestPipeline = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
) => withApiErrors(api.middleware(RequestBody).middleware(Authorization))
