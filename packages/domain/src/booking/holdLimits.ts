// Caps on live holds, so that one guest or one API key cannot take a hotel's inventory off sale
// by holding it: a guest may have at most `maxLiveHoldsPerGuest` live holds at once, and a key created with
// `--max-live-holds N` at most N. A hold past a cap is 409 `hold_limit_reached`.
import * as Result from "effect/Result"
import { HoldLimitReached } from "../errors/BusinessErrors.js"

export const maxLiveHoldsPerGuest = 10

export interface LiveHolds {
  /** The guest's live holds now, before this one. */
  readonly guest: number
  /** The API key's live holds now, before this one. */
  readonly apiKey: number
  /** The key's cap; null when it has none. */
  readonly apiKeyMax: number | null
}

/** Whether one more hold fits under both caps. */
export const checkHoldLimits = (live: LiveHolds): Result.Result<void, HoldLimitReached> => {
  if (live.guest >= maxLiveHoldsPerGuest) {
    return Result.fail(
      new HoldLimitReached({
        message: `The guest already has ${live.guest} live holds, the most a guest may have at once`
      })
    )
  }
  if (live.apiKeyMax !== null && live.apiKey >= live.apiKeyMax) {
    return Result.fail(
      new HoldLimitReached({
        message: `This API key already has ${live.apiKey} live holds, the most it may have at once (${live.apiKeyMax})`
      })
    )
  }
  return Result.void
}
