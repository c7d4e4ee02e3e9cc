import { ShuttingDown } from "@hotel/domain"
import type { IncomingMessage, ServerResponse } from "node:http"
import { metaOf, toEnvelope } from "@hotel/api/common/Envelope"
import { noStore } from "@hotel/api/common/Security"
import { newRequestId, requestIdOf } from "./RequestContext.js"

// A stop waits a bounded time for the requests in flight (docs/operations.md, stopping); past it, one whose
// body has arrived and whose handler has not answered yet is answered here, on the server's response itself,
// since the app will not answer it in time. The app's own answer, if it comes, finds the response ended and
// writes nothing.

const message = "The server stopped before this request was answered; send it again to another instance " +
  "(with the same Idempotency-Key, a retry never applies a write twice)"

/** 503 `shutting_down` with `Retry-After`, closing the connection, under the request's own id. */
export const answerCutRequest = (request: IncomingMessage, response: ServerResponse): void => {
  const requestId = requestIdOf(request) ?? newRequestId()
  const body = JSON.stringify(toEnvelope(metaOf(ShuttingDown), { _tag: "ShuttingDown", message }, requestId))
  response.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": noStore,
    "retry-after": "1",
    "x-request-id": requestId,
    connection: "close"
  })
  response.end(body)
}
