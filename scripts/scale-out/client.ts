// HTTP through the proxy, and SQL on the scratch database, for the checks.
import pg from "pg"

export interface Answer {
  readonly status: number
  readonly text: string
  readonly headers: Headers
}

export interface Client {
  readonly send: (method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>) =>
    Promise<Answer>
  readonly query: <A>(text: string, values?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<A>>
}

export const client = (baseUrl: string, pool: pg.Pool): Client => ({
  send: async (method, path, key, body, headers = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: res.status, text: await res.text(), headers: res.headers }
  },
  query: async <A>(text: string, values: ReadonlyArray<unknown> = []) =>
    (await pool.query(text, [...values])).rows as ReadonlyArray<A>
})

/** `{ "201": 2, "409 no_availability": 28 }`: each status, with the error code when there is one. */
export const outcomes = (answers: ReadonlyArray<Answer>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const answer of answers) {
    let code = ""
    try {
      const parsed = JSON.parse(answer.text) as { error?: { code?: string } }
      code = parsed.error?.code === undefined ? "" : ` ${parsed.error.code}`
    } catch {
      // not JSON
    }
    const label = `${answer.status}${code}`
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

/** Every request at once. */
export const concurrently = <A>(n: number, make: (i: number) => Promise<A>): Promise<ReadonlyArray<A>> =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)))
