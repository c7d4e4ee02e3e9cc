import type pg from "pg"

// Two things a statement's answer must not do, whatever the network or the server does: take longer than the
// server's own bounds allow (a host that died without closing its sockets never answers, and TCP alone would
// retransmit for many minutes), and report success for a commit that synchronous replication did not confirm.

/**
 * PostgreSQL commits locally and then waits for the synchronous standby; when that wait is cancelled (the
 * statement timeout, a cancel) it reports the commit as done with this WARNING: the transaction is on the
 * primary only, and a failover right after would lose it. (The variant where the session is terminated
 * sends no success at all.) PostgreSQL's English message text; the server's `lc_messages` must leave it so.
 */
const unreplicatedCommit = /^canceling (?:the )?wait for synchronous replication/

export const isUnreplicatedCommitWarning = (message: string | undefined): boolean =>
  message !== undefined && unreplicatedCommit.test(message)

/**
 * A statement whose commit the primary reported without its synchronous standby's confirmation. Answered 503
 * like a lost connection: the request's effects may or may not survive a failover, and a retry with the same
 * `Idempotency-Key` settles it (the stored answer if it committed, the request run again if not).
 */
export class CommitNotReplicated extends Error {
  constructor() {
    super("The commit was not confirmed by the synchronous standby")
  }
}

/** pg's message for a connection it closed itself; `DatabaseBusy` reads the prefix as a lost connection. */
export const noAnswerMessage = (limitMs: number) => `Connection terminated: no answer from the database within ${limitMs} ms`

type Callback = (error: Error | null | undefined, result?: unknown) => void
type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown

const isCallback = (value: unknown): value is Callback => typeof value === "function"

interface WithStream {
  readonly connection: { readonly stream: { destroy: (error?: Error) => void } }
}

/**
 * Guards the client's statements run with a callback (all of the application's, through `@effect/sql`): past
 * `limitMs` without an answer the socket is closed (the statement fails as a lost connection and the client
 * leaves the pool), and a success that came with the unreplicated-commit warning fails with
 * `CommitNotReplicated`. Statements run one at a time on a client, so a warning belongs to the statement
 * running when it arrives.
 */
export const guardQueries = (client: pg.Client, limitMs: number): void => {
  const query = client.query.bind(client) as Query
  let unconfirmed = false
  client.on("notice", (notice) => {
    if (isUnreplicatedCommitWarning(notice.message)) unconfirmed = true
  })
  const guarded: Query = (config, values, callback) => {
    const done = isCallback(values) ? values : isCallback(callback) ? callback : undefined
    if (done === undefined) return query(config, values, callback)
    unconfirmed = false
    const timer = setTimeout(() => {
      ;(client as unknown as WithStream).connection.stream.destroy(new Error(noAnswerMessage(limitMs)))
    }, limitMs)
    const answer: Callback = (error, result) => {
      clearTimeout(timer)
      if ((error === null || error === undefined) && unconfirmed) {
        unconfirmed = false
        return done(new CommitNotReplicated())
      }
      return done(error, result)
    }
    return isCallback(values) ? query(config, answer) : query(config, values, answer)
  }
  Object.assign(client, { query: guarded })
}
