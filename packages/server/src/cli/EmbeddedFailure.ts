import { describeEmbeddedFailure, EmbeddedPostgresError } from "@hotel/persistence/database/EmbeddedPostgres"
import type * as Cause from "effect/Cause"
import * as Option from "effect/Option"
import { findFailure } from "../runtime/StartupFailures.js"

/**
 * The embedded database's failure to start, as the one paragraph a person reads (what failed, why, and the
 * two ways out), instead of the JSON error document: it stops every command before it did anything.
 */
export const embeddedFailureText = (cause: Cause.Cause<unknown>): Option.Option<string> =>
  findFailure(cause, (error) =>
    error instanceof EmbeddedPostgresError ? Option.some(describeEmbeddedFailure(error)) : Option.none())
