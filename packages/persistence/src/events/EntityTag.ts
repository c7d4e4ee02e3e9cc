import { PreconditionFailed } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { configure } from "safe-stable-stringify"
import { EventRenderer } from "./EventRenderer.js"
import type { EventSubject } from "./EventSubject.js"
import { withSpan } from "../database/Span.js"

// Entity tags. A tag is derived from the representation `GET` answers, never from a stored
// version: the gateway hashes the body it is about to send, and a write service hashes the same representation
// rendered inside its transaction (the `EventRenderer`, which reads through the `GET` handlers' queries and
// presenters). Both go through `entityTagOf`, over a canonical JSON (keys sorted), so the order in which a
// presenter or a response schema writes the keys cannot make two equal representations differ.

// `safe-stable-stringify` writes what `JSON.stringify` writes (`toJSON`, dropped `undefined` properties), with
// every object's keys sorted, in one pass; configured to refuse what `JSON.stringify` refuses.
const stableStringify = configure({ circularValue: TypeError, bigint: false, deterministic: true })

/** The canonical encoding of a JSON value: what `JSON.stringify` writes, with every object's keys sorted. */
export const canonicalJson = (value: unknown): string => stableStringify(value) ?? "null"

/** The strong entity tag of a representation's canonical JSON text (`canonicalJson`), as in the `ETag` header. */
export const entityTagOfCanonical = (canonical: string): string =>
  `"${createHash("sha256").update(canonical).digest("base64url").slice(0, 32)}"`

/** The strong entity tag of a representation (a quoted string, as in the `ETag` header). */
export const entityTagOf = (representation: unknown): string => entityTagOfCanonical(canonicalJson(representation))

/** The tags listed in an `If-Match` or `If-None-Match` header (`*` stays `*`). */
const listedTags = (header: string): ReadonlyArray<string> =>
  header.split(",").map((tag) => tag.trim()).filter((tag) => tag.length > 0)

/** `If-Match`: strong comparison, so a weak tag (`W/"..."`) never matches; `*` matches any current tag. */
export const ifMatchAccepts = (header: string, current: string): boolean =>
  listedTags(header).some((tag) => tag === "*" || tag === current)

/** `If-None-Match`: weak comparison (a `W/` prefix is ignored); `*` matches any current tag. */
export const ifNoneMatchMatches = (header: string, current: string): boolean =>
  listedTags(header).some((tag) => tag === "*" || tag.replace(/^W\//, "") === current)

/**
 * The `If-Match` check of a write: call it inside the write's transaction, after the row lock, before any
 * change. Without a header (`undefined`) nothing is checked. A tag that is not the subject's current one fails
 * with `PreconditionFailed`, and the caller's transaction then rolls back having changed nothing; two writers
 * with the same tag are serialised by the lock, so the second sees the first's change and fails.
 */
export const requireCurrentTag = (
  propertyId: string,
  subject: EventSubject,
  expected: string | undefined
): Effect.Effect<void, PreconditionFailed, EventRenderer> =>
  expected === undefined ? Effect.void : Effect.gen(function*() {
    const renderer = yield* EventRenderer
    const now = new Date(yield* Clock.currentTimeMillis)
    const current = entityTagOf(yield* renderer.render(propertyId, subject, now))
    if (!ifMatchAccepts(expected, current)) {
      return yield* new PreconditionFailed({
        message: "If-Match does not name the current entity tag; GET the resource again and retry with its ETag"
      })
    }
  }).pipe(withSpan("EntityTag.requireCurrentTag"))
