// Reads the server's side of a PostgreSQL session as frames (a type byte, a 4-byte length that counts itself,
// a body), without decoding rows: only the three kinds the driver drops and the project needs are handed on.
// `@effect/sql-pg` 4 discards ParameterStatus and NoticeResponse (PgConnection.ts:466-468, 2030-2032), so
// the role a server announces at startup and the unreplicated-commit WARNING can only be seen on the wire.

export type ServerFrame =
  | { readonly _tag: "ParameterStatus"; readonly name: string; readonly value: string }
  | { readonly _tag: "Notice"; readonly severity: string; readonly message: string }
  | { readonly _tag: "ReadyForQuery" }

const PARAMETER_STATUS = 0x53 // S
const NOTICE = 0x4e // N
const READY_FOR_QUERY = 0x5a // Z

const kept = new Set([PARAMETER_STATUS, NOTICE, READY_FOR_QUERY])

const cStrings = (body: Uint8Array): Array<string> => {
  const out: Array<string> = []
  let start = 0
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0) {
      out.push(Buffer.from(body.subarray(start, i)).toString("utf8"))
      start = i + 1
    }
  }
  return out
}

/** Notice fields: a code byte then a string each; `V` is the untranslated severity, `M` the message. */
const noticeOf = (body: Uint8Array): ServerFrame => {
  const fields = new Map<string, string>()
  let i = 0
  while (i < body.length && body[i] !== 0) {
    const code = String.fromCharCode(body[i] ?? 0)
    const end = body.indexOf(0, i + 1)
    if (end === -1) break
    fields.set(code, Buffer.from(body.subarray(i + 1, end)).toString("utf8"))
    i = end + 1
  }
  return { _tag: "Notice", severity: fields.get("V") ?? fields.get("S") ?? "", message: fields.get("M") ?? "" }
}

const frameOf = (type: number, body: Uint8Array): ServerFrame | undefined => {
  if (type === READY_FOR_QUERY) return { _tag: "ReadyForQuery" }
  if (type === NOTICE) return noticeOf(body)
  const [name, value] = cStrings(body)
  return name === undefined || value === undefined ? undefined : { _tag: "ParameterStatus", name, value }
}

/**
 * A reader fed the server's bytes in whatever chunks they arrive; `push` returns the kept frames completed by
 * the chunk. Row data is skipped by length, never copied.
 */
export const makeFrameReader = () => {
  const header = new Uint8Array(5)
  let headerFill = 0
  let remaining = 0
  let type = 0
  let body: Uint8Array | undefined
  let bodyFill = 0

  return (chunk: Uint8Array): Array<ServerFrame> => {
    const frames: Array<ServerFrame> = []
    let i = 0
    while (i < chunk.length) {
      if (headerFill < 5) {
        header[headerFill++] = chunk[i++] ?? 0
        if (headerFill < 5) continue
        type = header[0] ?? 0
        remaining = new DataView(header.buffer).getInt32(1) - 4
        body = kept.has(type) ? new Uint8Array(remaining) : undefined
        bodyFill = 0
      }
      const take = Math.min(remaining, chunk.length - i)
      if (body !== undefined) body.set(chunk.subarray(i, i + take), bodyFill)
      bodyFill += take
      remaining -= take
      i += take
      if (remaining === 0) {
        const frame = body === undefined ? undefined : frameOf(type, body)
        if (frame !== undefined) frames.push(frame)
        headerFill = 0
        body = undefined
      }
    }
    return frames
  }
}
