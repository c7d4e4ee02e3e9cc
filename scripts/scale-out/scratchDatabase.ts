import pg from "pg"

/** A fresh database on the server of `DATABASE_URL` (default: the local PostgreSQL), dropped by `drop`. */
export interface ScratchDatabase {
  readonly url: string
  readonly drop: () => Promise<void>
}

const serverUrl = (): URL =>
  new URL(process.env["DATABASE_URL"] !== undefined && process.env["DATABASE_URL"].length > 0
    ? process.env["DATABASE_URL"]
    : "postgres://postgres@127.0.0.1:5432/postgres")

const onServer = async (work: (client: pg.Client) => Promise<unknown>): Promise<void> => {
  const client = new pg.Client({ connectionString: serverUrl().toString() })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}

export const scratchDatabase = async (prefix: string): Promise<ScratchDatabase> => {
  const name = `${prefix}_${process.pid}_${Date.now()}`
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`))
  const url = serverUrl()
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
  }
}
