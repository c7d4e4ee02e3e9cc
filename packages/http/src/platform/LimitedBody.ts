import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { InvalidJson, PayloadTooLarge } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { isUtf8 } from "node:buffer"
import { IncomingMessage } from "node:http"

const unreadable = () => new InvalidJson({ message: "The request body could not be read" })

/**
 * The 413, answered while the client may still be sending. The rest of an oversized upload flows into
 * nothing (Node drains an unread body after the answer), so it is never held in memory, and the connection
 * stays usable: closing it with unread bytes would reset it and could lose the answer.
 */
const tooLarge = (maxBytes: number) =>
  Effect.fail(new PayloadTooLarge({ message: `The request body is larger than ${maxBytes / (1024 * 1024)} MiB` }))

type Outcome = { readonly _tag: "Read"; readonly text: string } | { readonly _tag: "TooLarge" } | {
  readonly _tag: "Unreadable"
} | { readonly _tag: "NotUtf8" }

/** JSON text is UTF-8: bytes that are not would otherwise be stored as U+FFFD, silently changing the text. */
const decoded = (body: Buffer): Outcome => isUtf8(body) ? { _tag: "Read", text: body.toString("utf8") } : { _tag: "NotUtf8" }

/**
 * Node's request stream, counted as it arrives. Past the limit it stops collecting and lets the stream
 * flow into nothing (it is not destroyed: that would reset the socket before the 413 is written).
 */
const fromNode = (message: IncomingMessage, maxBytes: number) =>
  Effect.callback<Outcome>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const detach = () => {
      message.off("data", onData)
      message.off("end", onEnd)
      message.off("error", onError)
      message.off("aborted", onError)
    }
    const finish = (outcome: Outcome) => {
      detach()
      chunks.length = 0
      resume(Effect.succeed(outcome))
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxBytes) {
        finish({ _tag: "TooLarge" })
        message.resume()
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      finish(decoded(Buffer.concat(chunks)))
    }
    const onError = () => finish({ _tag: "Unreadable" })
    message.on("data", onData)
    message.once("end", onEnd)
    message.once("error", onError)
    message.once("aborted", onError)
    return Effect.sync(() => {
      detach()
      message.resume()
    })
  })

/** Any other request (a test's web request): its stream, counted the same way. */
const fromStream = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  request.stream.pipe(
    Stream.mapAccum(() => 0, (bytes, chunk: Uint8Array) => [bytes + chunk.length, [{ bytes: bytes + chunk.length, chunk }]]),
    Stream.takeUntil(({ bytes }) => bytes > maxBytes),
    Stream.runCollect,
    Effect.map((all): Outcome => {
      if ((all.at(-1)?.bytes ?? 0) > maxBytes) return { _tag: "TooLarge" }
      return decoded(Buffer.concat(all.map(({ chunk }) => chunk)))
    }),
    Effect.orElseSucceed((): Outcome => ({ _tag: "Unreadable" }))
  )

/**
 * The body's text, never holding more than `maxBytes` of it: a declared `Content-Length` over the limit is
 * refused before reading, and a body without one (chunked) is refused as soon as the count passes the limit.
 * A body that cannot be read is the client's 400, never an empty body.
 */
export const readLimited = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<string, PayloadTooLarge | InvalidJson> =>
  Effect.gen(function*() {
    if (Number(request.headers["content-length"] ?? "0") > maxBytes) return yield* tooLarge(maxBytes)
    const source: unknown = NodeHttpServerRequest.toIncomingMessage(request)
    const outcome = source instanceof IncomingMessage
      ? yield* fromNode(source, maxBytes)
      : yield* fromStream(request, maxBytes)
    switch (outcome._tag) {
      case "Read":
        return outcome.text
      case "TooLarge":
        return yield* tooLarge(maxBytes)
      case "Unreadable":
        return yield* unreadable()
      case "NotUtf8":
        return yield* Effect.fail(new InvalidJson({ message: "The request body is not valid UTF-8" }))
    }
  })
