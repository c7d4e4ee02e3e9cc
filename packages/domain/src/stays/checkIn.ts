// The room a check-in assigns, decided from the loaded facts: the room the caller named (if any),
// the reservation, and the rooms of its type free for every night of the stay.
import * as Result from "effect/Result"
import { NoAvailability, RoomUnavailable } from "../errors/BusinessErrors.js"
import { RoomNotFound } from "../errors/NotFoundErrors.js"
import { InvalidParameters } from "../errors/RequestErrors.js"

/** A room as stored. */
export interface RoomFacts {
  readonly id: string
  readonly number: string
  readonly roomTypeId: string
  readonly retired: boolean
}

/** The reservation a check-in is for. */
export interface CheckInFacts {
  readonly roomTypeId: string
  readonly roomTypeName: string
  readonly checkIn: string
  readonly checkOut: string
}

/**
 * The named room before the transition is checked: 404 `room_not_found` for no such room of the property, 400
 * `invalid_parameters` on `room_id` for a room of another type. No room named: nothing to check.
 */
export const checkNamedRoom = (
  roomId: string | null,
  room: RoomFacts | undefined,
  reservation: CheckInFacts
): Result.Result<void, RoomNotFound | InvalidParameters> => {
  if (roomId === null) return Result.void
  if (room === undefined) return Result.fail(new RoomNotFound({ message: `No room ${roomId}` }))
  if (room.roomTypeId !== reservation.roomTypeId) {
    return Result.fail(
      new InvalidParameters({
        message: `room_id: room ${room.number} is not a ${reservation.roomTypeName}, the room type of this reservation`,
        param: "room_id"
      })
    )
  }
  return Result.void
}

/**
 * The room to assign: the named one when it is in service and free (409 `room_unavailable` otherwise), else the
 * first free room (`free` is in the order to assign; none is 409 `no_availability`).
 */
export const assignRoom = (
  room: RoomFacts | undefined,
  free: ReadonlyArray<string>,
  reservation: CheckInFacts
): Result.Result<string, RoomUnavailable | NoAvailability> => {
  if (room !== undefined) {
    if (room.retired) return Result.fail(new RoomUnavailable({ message: `Room ${room.number} is out of service` }))
    if (!free.includes(room.id)) {
      return Result.fail(
        new RoomUnavailable({
          message: `Room ${room.number} is taken for a night from ${reservation.checkIn} to ${reservation.checkOut}`
        })
      )
    }
    return Result.succeed(room.id)
  }
  const first = free[0]
  if (first === undefined) {
    return Result.fail(
      new NoAvailability({
        message:
          `No ${reservation.roomTypeName} room is free for every night from ${reservation.checkIn} to ${reservation.checkOut}`
      })
    )
  }
  return Result.succeed(first)
}
