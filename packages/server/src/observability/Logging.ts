import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"

/** `json` (one JSON object a line) or `text` (one logfmt line: readable, still one line, no colours). */
export type LogFormat = "json" | "text"

const levels: Record<string, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error
}

/** `LOG_LEVEL`: debug, info (default), warning or error. */
export const LogLevelConfig = Config.string("LOG_LEVEL").pipe(
  Config.withDefault("info"),
  Config.mapOrFail((value) => {
    const level = levels[value.trim().toLowerCase()]
    return level === undefined
      ? Either.left(ConfigError.InvalidData([], `LOG_LEVEL must be debug, info, warning or error, not "${value}"`))
      : Either.right(level)
  })
)

/**
 * `LOG_FORMAT`: `json` or `text`. Unset, logs are JSON unless they go to a terminal: a log collector reads
 * JSON, a person at a terminal reads text.
 */
export const LogFormatConfig = Config.literal("json", "text")("LOG_FORMAT").pipe(
  Config.option,
  Config.map((format) => format._tag === "Some" ? format.value : process.stderr.isTTY === true ? "text" : "json")
)

/**
 * The line writer. Logs go to stderr because stdout carries the command's one JSON document (the demo key of
 * `hotel serve`). A line is formatted with `JSON.stringify` (or logfmt) and written at once: no pretty
 * layout, no colours, nothing held back that a crash would lose.
 */
export const loggerFor = (format: LogFormat): Logger.Logger<unknown, void> =>
  Logger.map(format === "json" ? Logger.jsonLogger : Logger.logfmtLogger, (line) => {
    process.stderr.write(`${line}\n`)
  })

/**
 * Replaces every line logger of the layers it is provided to (keeping the one that records logs as span
 * events) and sets the minimum level. Replacing rather than adding means it can be provided twice (the CLI
 * and the application) without writing each line twice.
 */
export const LoggingLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const format = yield* LogFormatConfig
    const level = yield* LogLevelConfig
    return Layer.mergeAll(
      Layer.scopedDiscard(Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
        HashSet.add(HashSet.filter(loggers, (logger) => logger === Logger.tracerLogger), loggerFor(format)))),
      Logger.minimumLogLevel(level)
    )
  })
)
