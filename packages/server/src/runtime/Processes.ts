import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import cluster, { type Worker } from "node:cluster"
import { atMost } from "./atMost.js"
import { type ConnectionDispatch, listenForProcesses } from "./ConnectionDispatch.js"
import { DrainDelayConfig } from "./DrainingServer.js"
import { pauseTimeout } from "./ListenerPause.js"
import { isMessage, stoppingTimeout } from "./ProcessMessages.js"
import { firstStopSignal, type StopSignal } from "./StopSignal.js"
import { drainTimeout } from "./TrackedServer.js"
import { ApiAddressConfig } from "./NodeServer.js"
import { wholeNumber } from "./settings.js"

// Several processes serving one API: every guarantee (stock, rate limits, idempotency keys, the outbox) lives
// in Postgres, so processes on one database need nothing from each other. `PROCESSES` starts that many on
// one machine: a Node process runs JavaScript on one core. The primary listens on `HOST:PORT` and hands the
// connections out in turn (`ConnectionDispatch.ts`).

/** `PROCESSES`: how many processes serve the API (default 1; at most 64). */
export const ProcessesConfig = Config.withDefault(wholeNumber("PROCESSES", 1, 64, "PROCESSES must be a whole number from 1 to 64"), 1)

/** A process exited before it was ready: it cannot serve (its metrics port in use, a bad setting); the primary gives up. */
export class ProcessStartFailed extends Data.TaggedError("ProcessStartFailed")<{
  readonly message: string
}> {}

const exitOf = (worker: Worker) =>
  Effect.callback<{ readonly code: number | null; readonly signal: string | null }>((resume) => {
    if (worker.process.exitCode !== null || worker.process.signalCode !== null) {
      return resume(Effect.succeed({ code: worker.process.exitCode, signal: worker.process.signalCode }))
    }
    worker.once("exit", (code: number | null, signal: string | null) => resume(Effect.succeed({ code, signal })))
  })

/** The process serves the API: it says so once its HTTP server is built. */
const ready = (worker: Worker) =>
  Effect.callback<void>((resume) => {
    const onMessage = (value: unknown) => {
      if (!isMessage(value, "ready")) return
      worker.off("message", onMessage)
      resume(Effect.void)
    }
    worker.on("message", onMessage)
    return Effect.sync(() => worker.off("message", onMessage))
  })

/**
 * The primary's work: listens on `HOST:PORT`, then starts `count` serving processes on the database it was given
 * (the embedded server it started, when `DATABASE_URL` is unset), each with `METRICS_PORT` plus its index when
 * metrics are on, and hands them the connections. A process that exits after it was ready is replaced; one that
 * exits before is a failed start, and the primary stops. Runs until interrupted (SIGTERM/SIGINT); its scope's
 * end stops the server as one process stops: the signal passed on (each process is not ready at once), each
 * process's drain delay after SIGTERM, the listener closed in a pause, then each process, released, answers what
 * it has in flight and exits; the database is released after them.
 */
export const serveProcesses = (count: number) =>
  Effect.gen(function*() {
    const url = yield* DatabaseUrl
    const { host, port } = yield* ApiAddressConfig
    const metricsPort = yield* Config.option(Config.Int("METRICS_PORT"))
    const delay = yield* DrainDelayConfig
    const dispatch = yield* listenForProcesses(host, port)
    const received = yield* firstStopSignal(() => Effect.sync(dispatch.stopping))
    const current = new Map<number, Worker>()

    const start = (index: number) =>
      Effect.sync(() => {
        const worker = cluster.fork({
          DATABASE_URL: Redacted.value(url),
          ...(Option.isSome(metricsPort) ? { METRICS_PORT: String(metricsPort.value + index) } : {})
        })
        current.set(index, worker)
        dispatch.serveBy(worker)
        return worker
      })

    /** Index `index`'s process for as long as the primary runs: started, and started again when it dies. */
    const supervise = (index: number): Effect.Effect<void, ProcessStartFailed> =>
      Effect.gen(function*() {
        const worker = yield* start(index)
        const first = yield* Effect.raceFirst(Effect.as(ready(worker), undefined), exitOf(worker))
        if (first !== undefined) {
          return yield* new ProcessStartFailed({
            message: `Serving process ${index} exited while starting (code ${first.code}, signal ${first.signal})`
          })
        }
        yield* Effect.logInfo(`Serving process ${index} (pid ${worker.process.pid}) is ready`)
        const exit = yield* exitOf(worker)
        yield* Effect.logWarning(`Serving process ${index} exited (code ${exit.code}, signal ${exit.signal}); starting another`)
        yield* Effect.sleep(Duration.seconds(1))
        return yield* supervise(index)
      })

    // Without a signal the primary is giving up on a failed start: SIGINT, the stop without a drain delay.
    yield* Effect.addFinalizer(() =>
      Effect.flatMap(received, (received) => {
        const signal = Option.getOrElse(received, (): StopSignal => "SIGINT")
        return stopAll([...current.values()], signal, dispatch, signal === "SIGTERM" ? delay : Duration.zero)
      }))
    yield* Effect.logInfo(`Starting ${count} serving processes`)
    yield* Effect.forEach(Array.from({ length: count }, (_, i) => i), supervise, { concurrency: "unbounded", discard: true })
  })

/**
 * Stops the processes still running: `signal` to each (a signal to the process group reached them already; the
 * repeat changes nothing); once each has served its drain delay not ready and asked to be released (or
 * `stoppingTimeout` after the delay), the listener closed, which releases them; then their exits, for at most
 * the time each takes to drain and a margin for their pools and a loaded machine (then SIGKILL).
 */
const stopAll = (
  workers: ReadonlyArray<Worker>,
  signal: StopSignal,
  dispatch: ConnectionDispatch,
  delay: Duration.Duration
) =>
  Effect.gen(function*() {
    const running = workers.filter((w) => w.process.exitCode === null && w.process.signalCode === null)
    // A failed start stops the server without a signal to the primary: the dispatch learns it here.
    dispatch.stopping()
    for (const worker of running) worker.process.kill(signal)
    if (Duration.isGreaterThan(delay, Duration.zero)) {
      yield* Effect.logInfo(`Stopping: each serving process not ready, serving ${Duration.format(delay)} more before the listener closes`)
    }
    const asked = yield* atMost(Duration.sum(delay, stoppingTimeout))(dispatch.allAsked)
    if (Option.isNone(asked)) {
      yield* Effect.logWarning(`Serving processes not all done with their drain delay ${Duration.format(stoppingTimeout)} after it: closing the listener`)
    }
    yield* dispatch.close
    const stopTimeout = [pauseTimeout, drainTimeout, Duration.seconds(10)].reduce(Duration.sum)
    const stopped = yield* atMost(stopTimeout)(Effect.forEach(running, exitOf, { discard: true }))
    if (Option.isNone(stopped)) {
      yield* Effect.logWarning(`Serving processes still running ${Duration.format(stopTimeout)} after the listener closed: killed`)
      for (const worker of running) worker.process.kill("SIGKILL")
    }
  })
