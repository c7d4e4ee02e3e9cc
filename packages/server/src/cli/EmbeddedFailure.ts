import { describeEmbeddedFailure, EmbeddedPostgresError } from "@hotel/persistence/database/EmbeddedPostgres"
import * as Cause from "effect/Cause"
import * as Option from "effect/Option"

/**
 * The embedded database's failure to start, as the one paragraph a person reads (what failed, why, and the
 * two ways out), instead of the JSON error document: it stops every command before it did anything.
 */
export const embeddedFailureText = (cause: Cause.Cause<unknown>): Option.Option<string> =>
  Cause.find(cause, (reason) => {
    const error = Cause.isFailType(reason) ? reason.error : Cause.isDieType(reason) ? reason.defect : undefined
    return error instanceof EmbeddedPostgresError ? Option.some(describeEmbeddedFailure(error)) : Option.none()
  })
