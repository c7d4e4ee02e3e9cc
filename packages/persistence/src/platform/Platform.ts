import * as Layer from "effect/Layer"
import { IdempotencyStore } from "./IdempotencyStore.js"
import { MaintenanceRepository } from "./MaintenanceRepository.js"
import { RateLimiter } from "./RateLimiter.js"

/**
 * The platform guarantees every API process shares through the database: rate-limit buckets, idempotency
 * keys (with their purge every 10 minutes) and the maintenance window. Needs only a `SqlClient`.
 */
export const PlatformLive = Layer.mergeAll(
  RateLimiter.postgres,
  MaintenanceRepository.Default,
  IdempotencyStore.purgeEvery().pipe(Layer.provideMerge(IdempotencyStore.postgres))
)

/**
 * Rate limits in this process's memory (tests). Idempotency keys stay in SQL (a stored response commits in
 * the transaction of the change it reports), as does the maintenance window.
 */
export const PlatformInMemory = Layer.mergeAll(
  RateLimiter.memory,
  MaintenanceRepository.Default,
  IdempotencyStore.postgres
)
