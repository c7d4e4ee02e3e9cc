import * as Layer from "effect/Layer"
import { ApiKeyRepository } from "./ApiKeyRepository.js"
import { IdempotencyKeys } from "./IdempotencyKeys.js"
import { MaintenanceRepository } from "./MaintenanceRepository.js"
import { RateLimiter } from "./RateLimiter.js"

/**
 * The platform guarantees every API process shares through the database: rate-limit buckets, idempotency
 * keys and the maintenance window. Needs only a `SqlClient`. The purge of expired idempotency keys is
 * background work (`IdempotencyKeys.purgeEvery`, with the server's other workers), not part of a request's
 * platform: a server under the `TestClock` would otherwise run a purge for every 10 minutes a test jumps over.
 */
export const PlatformLive = Layer.mergeAll(
  RateLimiter.postgres,
  MaintenanceRepository.layer,
  IdempotencyKeys.postgres
)

/**
 * Rate limits in this process's memory (tests). Idempotency keys stay in SQL (a stored response commits in
 * the transaction of the change it reports), as does the maintenance window.
 */
export const PlatformInMemory = Layer.mergeAll(
  RateLimiter.memory.pipe(Layer.provide(ApiKeyRepository.layer)),
  MaintenanceRepository.layer,
  IdempotencyKeys.postgres
)
