// What the stream under every session (`HostStream.ts`) closes a connection for, as the cause of the
// `ConnectionError` the driver then fails the statement with: `DatabaseBusy.ts` answers both 503.

/**
 * PostgreSQL commits locally and then waits for the synchronous standby; when that wait is cancelled (the
 * statement timeout, a cancel) it reports the commit as done with this WARNING: the transaction is on the
 * primary only, and a failover right after would lose it. (The variant where the session is terminated
 * sends no success at all.) PostgreSQL's English message text; the server's `lc_messages` must leave it so.
 */
const unreplicatedCommit = /^canceling (?:the )?wait for synchronous replication/

export const isUnreplicatedCommitWarning = (message: string): boolean => unreplicatedCommit.test(message)

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

/**
 * A statement left unanswered past the bound (the statement timeout and a margin): the host vanished without
 * closing its sockets, and TCP alone would retransmit for many minutes.
 */
export class NoAnswer extends Error {
  constructor(readonly limitMs: number) {
    super(`no answer from the database within ${limitMs} ms`)
  }
}
