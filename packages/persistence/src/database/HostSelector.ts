import type { Host, TargetSessionAttrs } from "./ConnectionString.js"
import { chooseHost, decided, type ServerRole } from "./TargetSession.js"

// Which host of a multi-host URL a pool connects to. libpq tries the hosts in order on every connection; a
// pool opens connections all the time, so this remembers the host it found and searches again only when a
// connection to it fails or finds it in the wrong role (a primary that died, a standby that was promoted or a
// primary that was demoted). One search at a time: connections wanted meanwhile wait for its answer.

/**
 * No host is what the URL asks for (all down, or none in the role: the failover window, while no standby has
 * been promoted yet). SQLSTATE 08001 (the client could not establish a connection), as libpq says it, so it is
 * a busy database (503), not a bug.
 */
export class NoSuitableHost extends Error {
  readonly code = "08001"
}

export interface HostSelector {
  /** The host to open a connection on: the one found before, or the answer of a search. */
  readonly current: () => Promise<Host>
  /** A connection to this host failed, or found it in the wrong role: the next connection searches again. */
  readonly forget: (host: Host) => void
}

export interface HostSelectorOptions {
  readonly hosts: ReadonlyArray<Host>
  readonly attrs: TargetSessionAttrs
  /** Opens a session on the host and reads its role; rejects when the host cannot be reached. */
  readonly probe: (host: Host) => Promise<ServerRole>
  readonly now: () => number
  /**
   * After a search found nothing, connections wanted within this many milliseconds fail at once with its
   * answer instead of each asking every host again (a failover window under load).
   */
  readonly quietMs: number
}

const hostText = ({ host, port }: Host) => `${host}:${port}`

const reason = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

const roleText = (role: ServerRole) => (role.inRecovery ? "a standby" : role.readOnly ? "read-only" : "a primary")

export const makeHostSelector = (options: HostSelectorOptions): HostSelector => {
  let known: Host | undefined
  let searching: Promise<Host> | undefined
  let failed: { readonly at: number; readonly error: NoSuitableHost } | undefined

  const search = async (): Promise<Host> => {
    const roles: Array<ServerRole | undefined> = []
    const answers: Array<string> = []
    for (const host of options.hosts) {
      try {
        const role = await options.probe(host)
        roles.push(role)
        answers.push(`${hostText(host)} is ${roleText(role)}`)
      } catch (cause) {
        roles.push(undefined)
        answers.push(`${hostText(host)}: ${reason(cause)}`)
      }
      if (decided(options.attrs, roles)) break
    }
    const index = chooseHost(options.attrs, roles)
    const host = index === undefined ? undefined : options.hosts[index]
    if (host === undefined) {
      throw new NoSuitableHost(`no host for target_session_attrs=${options.attrs} (${answers.join("; ")})`)
    }
    return host
  }

  const current = (): Promise<Host> => {
    if (known !== undefined) return Promise.resolve(known)
    if (searching !== undefined) return searching
    if (failed !== undefined && options.now() - failed.at < options.quietMs) return Promise.reject(failed.error)
    const started = search().then(
      (host) => {
        known = host
        failed = undefined
        return host
      },
      (error: unknown) => {
        const answer = error instanceof NoSuitableHost ? error : new NoSuitableHost(reason(error))
        failed = { at: options.now(), error: answer }
        throw answer
      }
    ).finally(() => {
      searching = undefined
    })
    searching = started
    return started
  }

  const forget = (host: Host) => {
    if (known !== undefined && known.host === host.host && known.port === host.port) known = undefined
  }

  return { current, forget }
}
