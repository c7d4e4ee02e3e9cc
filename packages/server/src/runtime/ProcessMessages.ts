import * as Duration from "effect/Duration"
import cluster from "node:cluster"

// With `PROCESSES` above 1 the primary listens on the API's port and hands every connection it accepts to a
// serving process over their IPC channel. What they tell each other there, besides the connections:

/** Whether this process is one the primary started (it serves the API itself). */
export const isServingProcess = (): boolean => cluster.isWorker

/**
 * - `connection` (primary → process, with the socket): a connection to serve.
 * - `released` (primary → process): no connection comes after this one (the channel keeps the order).
 * - `ready` (process → primary): the API is served; hand me connections.
 * - `stopping` (process → primary): my drain delay is over; release me.
 */
export type ProcessMessage = "connection" | "released" | "ready" | "stopping"

export const message = (kind: ProcessMessage) => ({ hotel: kind })

/** Whether an IPC message is the primary's or a serving process's `kind`. */
export const isMessage = (value: unknown, kind: ProcessMessage): boolean =>
  typeof value === "object" && value !== null && "hotel" in value && value.hotel === kind

/**
 * How long past the drain delay the primary waits for every serving process to send `stopping`: a process
 * sends it once it has been not ready for the whole delay, counted from when it took the signal, which a
 * loaded machine may deliver late. A process waits longer than this for its `released`, so the listener
 * closes before any of them gives up on it.
 */
export const stoppingTimeout = Duration.seconds(3)
