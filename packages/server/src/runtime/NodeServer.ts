import { answerUnparsableRequests } from "@hotel/http/platform/UnparsableRequests"
import * as Config from "effect/Config"
import { createServer, type Server } from "node:http"

/**
 * The most a request line and its headers may take. Node's default (16 KiB) answered a long path with a
 * bodiless 431 before the router saw it; a path the API does not serve must be 404 `unknown_route` whatever
 * its length, so the bound is the body's (1 MiB): one request can hold no more of the process either way.
 */
export const maxHeaderSize = 1024 * 1024

/**
 * How long an idle kept-alive connection stays open. A client that reuses a connection in the instant the
 * server closes it gets a reset, not an answer, and cannot know whether its write ran. Node's 5 s makes that
 * instant frequent: clients keep a connection for the server's advertised timeout less a second, so a busy
 * event loop on either side closes the gap. 65 s is longer than a balancer's usual idle timeout (60 s), so a
 * balancer in front closes its connections first, as it expects to (docs/operations.md).
 */
export const keepAliveTimeoutMs = 65_000

/** The API's Node HTTP server, as production and the tests' in-process server create it. */
export const makeNodeServer = (): Server => {
  const server = createServer({ maxHeaderSize })
  server.keepAliveTimeout = keepAliveTimeoutMs
  answerUnparsableRequests(server)
  return server
}

/** Where the API listens: `HOST` (default 127.0.0.1) and `PORT` (default 3000). */
export const ApiAddressConfig = Config.all({
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.Int("PORT").pipe(Config.withDefault(3000))
})
