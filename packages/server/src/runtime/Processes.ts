import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import cluster, { type Worker } from "node:cluster"

// Several processes serving one API: every guarantee (stock, rate limits, idempotency keys, the outbox) lives
// in Postgres, so processes on one database need nothing from each other. `PROCESSES` starts that many on
// one machine, sharing `HOST:PORT` through Node's cluster module: a Node process runs JavaScript on one core.

/** `PROCESSES`: how many processes serve the API (default 1; at most 64). */
export const ProcessesConfig = Config.integer("PROCESSES").pipe(
  Config.withDefault(1),
  Config.validate({ message: "PROCESSES must be a whole number from 1 to 64", validation: (n) => n >= 1 && n <= 64 })
)

/** Whether this process is one the primary started (it serves the API itself). */
export const isServingProcess = (): boolean => cluster.isWorker

/** How long the primary waits for its processes to drain (each drains for up to 10 s) before killing them. */
const stopTimeout = Duration.seconds(20)

/** A process exited before it listened: it cannot serve (a port in use, a bad setting); the primary gives up. */
export class ProcessStartFailed extends Data.TaggedError("ProcessStartFailed")<{
  readonly message: string
}> {}

const exitOf = (worker: Worker) =>
  Effect.async<{ readonly code: number | null; readonly signal: string | null }>((resume) => {
    if (worker.process.exitCode !== null || worker.process.signalCode !== null) {
      return resume(Effect.succeed({ code: worker.process.exitCode, signal: worker.process.signalCode }))
    }
    worker.once("exit", (code: number | null, signal: string | null) => resume(Effect.succeed({ code, signal })))
  })

/** The process listens on the API's port (its metrics port, when set, may listen first, or alone). */
const listening = (worker: Worker, port: number) =>
  Effect.async<void>((resume) => {
    const onListening = (address: { readonly port: number }) => {
      if (port !== 0 && address.port !== port) return
      worker.off("listening", onListening)
      resume(Effect.void)
    }
    worker.on("listening", onListening)
    return Effect.sync(() => worker.off("listening", onListening))
  })

/**
 * The primary's work: starts `count` serving processes on the database it was given (the embedded server it
 * started, when `DATABASE_URL` is unset), each with `METRICS_PORT` plus its index when metrics are on. A process
 * that exits after it listened is replaced; one that exits before is a failed start, and the primary stops.
 * Runs until interrupted (SIGTERM/SIGINT); its scope's end stops the processes (each drains its requests)
 * before the database is released.
 */
export const serveProcesses = (count: number) =>
  Effect.gen(function*() {
    const url = yield* DatabaseUrl
    const port = yield* Config.integer("PORT").pipe(Config.withDefault(3000))
    const metricsPort = yield* Config.option(Config.integer("METRICS_PORT"))
    const current = new Map<number, Worker>()

    const start = (index: number) =>
      Effect.sync(() => {
        const worker = cluster.fork({
          DATABASE_URL: Redacted.value(url),
          ...(Option.isSome(metricsPort) ? { METRICS_PORT: String(metricsPort.value + index) } : {})
        })
        current.set(index, worker)
        return worker
      })

    /** Index `index`'s process for as long as the primary runs: started, and started again when it dies. */
    const supervise = (index: number): Effect.Effect<void, ProcessStartFailed> =>
      Effect.gen(function*() {
        const worker = yield* start(index)
        const first = yield* Effect.raceFirst(Effect.as(listening(worker, port), undefined), exitOf(worker))
        if (first !== undefined) {
          return yield* new ProcessStartFailed({
            message: `Serving process ${index} exited while starting (code ${first.code}, signal ${first.signal})`
          })
        }
        yield* Effect.logInfo(`Serving process ${index} (pid ${worker.process.pid}) is listening`)
        const exit = yield* exitOf(worker)
        yield* Effect.logWarning(`Serving process ${index} exited (code ${exit.code}, signal ${exit.signal}); starting another`)
        yield* Effect.sleep(Duration.seconds(1))
        return yield* supervise(index)
      })

    yield* Effect.addFinalizer(() => stopAll([...current.values()]))
    yield* Effect.logInfo(`Starting ${count} serving processes`)
    yield* Effect.forEach(Array.from({ length: count }, (_, i) => i), supervise, { concurrency: "unbounded", discard: true })
  })

/** SIGTERM to every process still running, then their exits, for at most `stopTimeout` (then SIGKILL). */
const stopAll = (workers: ReadonlyArray<Worker>) =>
  Effect.gen(function*() {
    const running = workers.filter((w) => w.process.exitCode === null && w.process.signalCode === null)
    for (const worker of running) worker.process.kill("SIGTERM")
    const stopped = yield* Effect.timeoutOption(Effect.forEach(running, exitOf, { discard: true }), stopTimeout)
    if (Option.isNone(stopped)) {
      yield* Effect.logWarning(`Serving processes still running after ${Duration.format(stopTimeout)}: killed`)
      for (const worker of running) worker.process.kill("SIGKILL")
    }
  })
