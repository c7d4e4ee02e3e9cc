import { MethodNotAllowed } from "@hotel/domain"
import { type IncomingMessage, type Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { metaOf, toEnvelope } from "@hotel/api/common/Envelope"

// A request Node's parser refuses never reaches the application. Node would answer each with a bare status
// line; the one a client is most likely to send on purpose, a request line whose method is no HTTP method the
// API serves (`FOO /me HTTP/1.1`, a lower-case `get`), gets the API's 405 envelope instead. Anything else
// unparsable, a line that is no request line at all (no target, no HTTP version: a TLS handshake, a stray
// line of text), keeps Node's answer (400, or 431 past the header bound), then the connection closes.

/** A whole request line: a method token, a target, an HTTP version (RFC 9112, section 3). */
const requestLine = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d\r?\n/

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

/**
 * A `CONNECT` is parsed, but Node hands it to the server's `connect` event alone, with the bare socket, and
 * without a listener closes the connection unanswered. It is given to the application as any request (which
 * serves no `CONNECT`: 405 with `Allow`, or 404), on a response that closes the connection once sent.
 */
const answerConnect = (server: Server) => (request: IncomingMessage, socket: Socket): void => {
  const response = new ServerResponse(request)
  response.shouldKeepAlive = false
  response.assignSocket(socket)
  response.once("finish", () => {
    response.detachSocket(socket)
    socket.destroySoon()
  })
  server.emit("request", request, response)
}

/** Answers the requests `server`'s parser refuses, and `CONNECT` (see above). */
export const answerUnparsableRequests = (server: Server): void => {
  server.on("connect", answerConnect(server))
  server.on("clientError", (error: NodeJS.ErrnoException & { readonly rawPacket?: unknown }, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    const methodOnly = error.code === "HPE_INVALID_METHOD" && Buffer.isBuffer(error.rawPacket) &&
      requestLine.test(error.rawPacket.toString("latin1"))
    socket.end(methodOnly ? methodNotAllowed(error.rawPacket) : nodeAnswer(error.code))
  })
}
