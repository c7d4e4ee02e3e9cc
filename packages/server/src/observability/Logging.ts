import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type * as LogLevel from "effect/LogLevel"
import * as References from "effect/References"
import * as Schema from "effect/Schema"

/** `json` (one JSON object a line) or `text` (one logfmt line: readable, still one line, no colours). */
export type LogFormat = "json" | "text"

const levels: Record<string, LogLevel.LogLevel> = {
  debug: "Debug",
  info: "Info",
  warning: "Warn",
  warn: "Warn",
  error: "Error"
}

const levelOf = (value: string): LogLevel.LogLevel | undefined => levels[value.trim().toLowerCase()]

/** A level's name as an operator writes it (any case, `warning` or `warn`). */
const LevelName = Schema.String.check(Schema.makeFilter((value: string) =>
  levelOf(value) !== undefined || `LOG_LEVEL must be debug, info, warning or error, not "${value}"`))

/** `LOG_LEVEL`: debug, info (default), warning or error. */
export const LogLevelConfig = Config.schema(LevelName, "LOG_LEVEL").pipe(
  Config.withDefault("info"),
  Config.map((name): LogLevel.LogLevel => levelOf(name) ?? "Info")
)

/**
 * `LOG_FORMAT`: `json` or `text`. Unset, logs are JSON unless they go to a terminal: a log collector reads
 * JSON, a person at a terminal reads text.
 */
export const LogFormatConfig = Config.Literals(["json", "text"], "LOG_FORMAT").pipe(
  Config.option,
  Config.map((format): LogFormat => format._tag === "Some" ? format.value : process.stderr.isTTY === true ? "text" : "json")
)

/**
 * Where log lines go: stderr, because stdout carries the command's one JSON document (the demo key of
 * `hotel serve`). A write to a pipe is a system call, and synchronous on Linux, so lines are not written one
 * by one on the request's path: they are queued and written together at most `flushAfterMillis` later (one
 * write for every line of the window), on the event loop's own timer (this is I/O buffering, not business
 * time, so it does not follow `Clock`). Closing the layer, and the process's `exit` event, write what is
 * queued, so a normal stop or a failed start loses nothing; a `kill -9` loses at most that window.
 */
const flushAfterMillis = 20

const makeLineSink = (write: (chunk: string) => void) => {
  let queued: Array<string> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (queued.length === 0) return
    const chunk = queued.join("")
    queued = []
    write(chunk)
  }
  const push = (line: string) => {
    queued.push(`${line}\n`)
    if (timer === undefined) timer = setTimeout(flush, flushAfterMillis).unref()
  }
  return { push, flush }
}

/** The sink for the layer's lifetime: flushed when the layer closes and when the process exits. */
const lineSink = Effect.acquireRelease(
  Effect.sync(() => {
    const sink = makeLineSink((chunk) => process.stderr.write(chunk))
    process.on("exit", sink.flush)
    return sink
  }),
  (sink) =>
    Effect.sync(() => {
      process.off("exit", sink.flush)
      sink.flush()
    })
)

/**
 * A JSON line with the fields (and their order) the project's log lines have always had:
 * `{"message", "logLevel", "timestamp", "cause"?, "annotations", "spans", "fiberId"}`.
 */
const jsonLine = Logger.map(Logger.formatStructured, ({ annotations, cause, fiberId, level, message, spans, timestamp }) =>
  JSON.stringify({ message, logLevel: level, timestamp, cause, annotations, spans, fiberId }))

/** One line per message: `JSON.stringify` (or logfmt), no pretty layout, no colours. */
export const loggerFor = (format: LogFormat, push: (line: string) => void): Logger.Logger<unknown, void> =>
  Logger.map(format === "json" ? jsonLine : Logger.formatLogFmt, push)

/**
 * Replaces the loggers of the layers it is provided to (keeping the one that records logs as span events)
 * and sets the minimum level. Replacing rather than adding means it can be provided twice (the CLI and the
 * application) without writing each line twice.
 */
export const LoggingLive = Layer.unwrap(
  Effect.gen(function*() {
    const format = yield* LogFormatConfig
    const level = yield* LogLevelConfig
    return Layer.mergeAll(
      Layer.effect(
        Logger.CurrentLoggers,
        Effect.map(lineSink, (sink) => new Set([Logger.tracerLogger, loggerFor(format, sink.push)]))
      ),
      Layer.succeed(References.MinimumLogLevel, level)
    )
  })
)
