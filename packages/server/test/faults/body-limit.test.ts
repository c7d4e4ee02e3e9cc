import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { request as httpRequest } from "node:http"
import type { ErrorBody } from "../utils/http.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// The 1 MiB body limit is counted while the body streams in: a chunked body (no Content-Length) is refused
// as soon as it passes the limit, while the client is still sending, so the server never holds more than
// the limit of it.

interface Upload {
  readonly status: number
  readonly body: string
  /** Bytes the client had handed to the socket when the answer arrived. */
  readonly sentBeforeAnswer: number
  /** Whether the client had finished the body when the answer arrived. */
  readonly finishedBeforeAnswer: boolean
}

const chunk = Buffer.alloc(64 * 1024, "x")

/**
 * POSTs up to `total` bytes chunked (`Transfer-Encoding: chunked`, no `Content-Length`), one chunk after the
 * previous one was flushed, and stops sending as soon as an answer arrives.
 */
const chunkedUpload = (baseUrl: string, key: string, path: string, total: number) =>
  Effect.callback<Upload>((resume) => {
    let sent = 0
    let answered = false
    let finished = false
    const req = httpRequest(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
    })
    req.on("error", () => {
      // The client stops mid-body once answered; the broken request is expected.
    })
    req.on("response", (res) => {
      answered = true
      const sentBeforeAnswer = sent
      const finishedBeforeAnswer = finished
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (part: string) => (body += part))
      res.on("end", () => {
        req.destroy()
        resume(Effect.succeed({ status: res.statusCode ?? 0, body, sentBeforeAnswer, finishedBeforeAnswer }))
      })
    })
    const next = () => {
      if (answered) return
      if (sent >= total) {
        finished = true
        req.end("\"}")
        return
      }
      sent += chunk.length
      req.write(chunk, () => setImmediate(next))
    }
    req.write("{\"first_name\":\"A\",\"last_name\":\"B\",\"notes\":\"")
    next()
  })

layer(TestApiLive, { excludeTestServices: true })("faults: streaming body limit", (it) => {
  it.effect("a chunked 5 MB body without Content-Length is 413 before the client has finished sending", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const upload = yield* chunkedUpload(api.baseUrl, api.key, "/guests", 5 * 1024 * 1024)
      expect(upload.status, upload.body).toBe(413)
      const body = JSON.parse(upload.body) as ErrorBody
      expect(body.error).toMatchObject({ type: "invalid_request", code: "payload_too_large" })
      expect(upload.finishedBeforeAnswer).toBe(false)
      expect(upload.sentBeforeAnswer).toBeLessThan(5 * 1024 * 1024)
    }))

  it.effect("a chunked body under the limit is read whole and handled as usual", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const upload = yield* chunkedUpload(api.baseUrl, api.key, "/guests", 512 * 1024)
      expect(upload.finishedBeforeAnswer).toBe(true)
      expect(upload.status, upload.body.slice(0, 300)).not.toBe(413)
    }))

  it.effect("a declared Content-Length over 1 MiB is 413 without the body being read", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* Effect.callback<{ status: number; body: string }>((resume) => {
        const req = httpRequest(`${api.baseUrl}/guests`, {
          method: "POST",
          headers: { authorization: `Bearer ${api.key}`, "content-length": String(2 * 1024 * 1024) }
        })
        req.on("error", () => {})
        req.on("response", (answer) => {
          let body = ""
          answer.setEncoding("utf8")
          answer.on("data", (part: string) => (body += part))
          answer.on("end", () => {
            req.destroy()
            resume(Effect.succeed({ status: answer.statusCode ?? 0, body }))
          })
        })
        // Only the headers and a first byte: the answer must not wait for the announced 2 MiB.
        req.write("{")
      })
      expect(res.status, res.body).toBe(413)
      expect((JSON.parse(res.body) as ErrorBody).error).toMatchObject({ code: "payload_too_large" })
    }))
})
