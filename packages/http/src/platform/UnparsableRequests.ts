import { MethodNotAllowed } from "@hotel/domain"
import type { Server } from "node:http"
import type { Socket } from "node:net"
import { metaOf, toEnvelope } from "../common/Envelope.js"

// A request Node's parser refuses never reaches the application. Node would answer each with a bare status
// line; the one a client is most likely to send on purpose, a method that is no HTTP method the API serves
// (`FOO`, a lower-case `get`), gets the API's 405 envelope instead. Anything else unparsable keeps Node's
// answer (400, or 431 past the header bound), then the connection closes.

const nodeAnswer = (code: string | undefined): string =>
  code === "HPE_HEADER_OVERFLOW"
    ? "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n"
    : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"

const methodNotAllowed = (rawPacket: unknown): string => {
  const sent = Buffer.isBuffer(rawPacket) ? rawPacket.toString("latin1").split(/[ \r\n]/, 1)[0].slice(0, 20) : ""
  const requestId = `req_${globalThis.crypto.randomUUID().replace(/-/g, "")}`
  const body = JSON.stringify(toEnvelope(
    metaOf(MethodNotAllowed),
    { _tag: "MethodNotAllowed", message: `${JSON.stringify(sent)} is not a method the API serves (methods are upper case: GET, POST, PATCH, DELETE)` },
    requestId
  ))
  return `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
}

/** Answers the requests `server`'s parser refuses (see above). */
export const answerUnparsableRequests = (server: Server): void => {
  server.on("clientError", (error: NodeJS.ErrnoException & { readonly rawPacket?: unknown }, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    socket.end(error.code === "HPE_INVALID_METHOD" ? methodNotAllowed(error.rawPacket) : nodeAnswer(error.code))
  })
}
