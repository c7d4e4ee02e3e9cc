import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import type { Worker } from "node:cluster"
import * as Net from "node:net"
import { closeInPause } from "./ListenerPause.js"
import { isMessage, message } from "./ProcessMessages.js"
import { listenFailed } from "./StartupFailures.js"

// Why the primary listens itself rather than let Node's cluster share the port: the cluster's primary accepts
// connections for its processes too, but closes the shared socket when the last process closes its listener,
// with whatever it had accepted and not yet handed over: those connections are reset, and no process can see
// them coming. Here the listener and its close are in one process, which closes it in a pause between
// connections, as a single process does, and only then tells the processes that no connection will come.

export interface ConnectionDispatch {
  /** Hands connections to `worker` once it says it is ready, until it is released or gone. */
  readonly serveBy: (worker: Worker) => void
  /** The server is stopping: a process asking to be released is released when the listener closes. */
  readonly stopping: () => void
  /**
   * Once stopping, done when every serving process has asked to be released: each has been not ready for its
   * whole drain delay, counted from the moment it took the signal, so the listener may close.
   */
  readonly allAsked: Effect.Effect<void>
  /** Closes the listener in a pause between connections, then releases every process. */
  readonly close: Effect.Effect<void>
}

/**
 * The primary's listener on `host:port`: it accepts connections without reading them and hands each, in turn,
 * to a serving process that is ready. Connections accepted while none is (at start, or while a lone process is
 * replaced) wait for the first that is.
 */
export const listenForProcesses = (host: string, port: number) =>
  Effect.gen(function*() {
    const asked = yield* Deferred.make<void>()
    const listener = Net.createServer({ pauseOnConnect: true })
    const serving = new Set<Worker>()
    const rotation: Array<Worker> = []
    // Asked to be released while no other process could take their share: released when one can.
    const pending = new Set<Worker>()
    const waiting: Array<Net.Socket> = []
    let accepted = 0
    let turn = 0
    let stopping = false

    const leave = (worker: Worker) => {
      const at = rotation.indexOf(worker)
      if (at >= 0) rotation.splice(at, 1)
    }
    const handOut = (socket: Net.Socket) => {
      const worker = rotation[turn++ % Math.max(rotation.length, 1)]
      if (worker === undefined || !worker.isConnected()) {
        if (worker !== undefined) leave(worker)
        if (rotation.length > 0) return handOut(socket)
        return void waiting.push(socket)
      }
      // A send that fails (the process died that instant) loses the connection, as a crash loses those it held;
      // closed, so that its client is not left waiting.
      worker.send(message("connection"), socket, (error) => {
        if (error !== null) socket.destroy()
      })
    }
    const checkAsked = () => {
      if (stopping && [...serving].every((worker) => pending.has(worker))) Deferred.doneUnsafe(asked, Effect.void)
    }
    const release = (worker: Worker) => {
      pending.delete(worker)
      leave(worker)
      if (worker.isConnected()) worker.send(message("released"))
    }
    listener.on("connection", (socket: Net.Socket) => {
      accepted++
      // A client gone while its connection waits for a process must not take the primary down with it.
      socket.on("error", () => socket.destroy())
      handOut(socket)
    })

    yield* Effect.callback<void, ReturnType<ReturnType<typeof listenFailed>>>((resume) => {
      const onError = (error: Error) => resume(Effect.fail(listenFailed(host, port, "PORT")({ cause: error })))
      listener.once("error", onError)
      listener.listen({ host, port }, () => {
        listener.off("error", onError)
        resume(Effect.void)
      })
    })
    // Once listening, an error is a connection the kernel could not hand over (out of file descriptors):
    // logged, and the listener goes on.
    const context = yield* Effect.context<never>()
    listener.on("error", (error) =>
      Effect.runForkWith(context)(Effect.logWarning("The API's listener could not accept a connection", error)))
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        if (listener.listening) listener.close()
        for (const socket of waiting.splice(0)) socket.destroy()
      })
    )

    const serveBy = (worker: Worker) => {
      worker.on("message", (value: unknown) => {
        if (isMessage(value, "ready")) {
          serving.add(worker)
          rotation.push(worker)
          for (const socket of waiting.splice(0)) handOut(socket)
          if (!stopping) pending.forEach(release)
        } else if (isMessage(value, "stopping")) {
          // One process stopping alone (stopped by hand) leaves its share to the others; while the whole server
          // stops, or with no other process, it serves until the listener closes.
          pending.add(worker)
          if (!stopping && rotation.some((other) => !pending.has(other))) release(worker)
          checkAsked()
        }
      })
      worker.once("exit", () => {
        serving.delete(worker)
        pending.delete(worker)
        leave(worker)
        checkAsked()
      })
    }
    const close = Effect.andThen(
      closeInPause(listener, () => accepted),
      Effect.sync(() => {
        for (const socket of waiting.splice(0)) socket.destroy()
        serving.forEach(release)
      })
    ).pipe(Effect.andThen(Effect.logInfo("Shutting down: listener closed; serving processes released")))
    const markStopping = () => {
      stopping = true
      checkAsked()
    }
    return { serveBy, stopping: markStopping, allAsked: Deferred.await(asked), close } satisfies ConnectionDispatch
  })
