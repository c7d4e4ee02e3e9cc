import type * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import type * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import type * as Context from "effect/Context"
import { Authorization, IdempotentTransaction, RequestBody } from "./Security.js"

/**
 * `api` with three endpoint middleware that run in the order given. The framework wraps each middleware
 * around the ones declared before it, so the one that runs first is declared last; this is the only place
 * that knows it.
 */
const runningInOrder = <
  I1 extends HttpApiMiddleware.HttpApiMiddleware.AnyId, S1,
  I2 extends HttpApiMiddleware.HttpApiMiddleware.AnyId, S2,
  I3 extends HttpApiMiddleware.HttpApiMiddleware.AnyId, S3
>(first: Context.Tag<I1, S1>, second: Context.Tag<I2, S2>, third: Context.Tag<I3, S3>) =>
<Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(api: HttpApi.HttpApi<Id, Groups, E, R>) =>
  api.middleware(third).middleware(second).middleware(first)

/**
 * The request pipeline of every authenticated endpoint, declared once, in the order it runs (see
 * docs/ARCHITECTURE.md): `Authorization` (the key, its rate limit, the endpoint's scope), then `RequestBody`
 * (the body's size and syntax, the `Idempotency-Key` claim), then `IdempotentTransaction` (the handler runs in
 * the transaction that holds the key). `Api.ts` applies it to every feature's groups but the health checks.
 */
export const withRequestPipeline = runningInOrder(Authorization, RequestBody, IdempotentTransaction)
