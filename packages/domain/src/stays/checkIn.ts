// The room a check-in assigns, decided from the loaded facts: the room the caller named (if any),
// the reservation, and the rooms of its type free for every night of the stay.
import * as Either from "effect/Either"
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
): Either.Either<void, RoomNotFound | InvalidParameters> => {
  if (roomId === null) return Either.void
  if (room === undefined) return Either.left(new RoomNotFound({ message: `No room ${roomId}` }))
  if (room.roomTypeId !== reservation.roomTypeId) {
    return Either.left(
      new InvalidParameters({
        message: `room_id: room ${room.number} is not a ${reservation.roomTypeName}, the room type of this reservation`,
        param: "room_id"
      })
    )
  }
  return Either.void
}

/**
 * The room to assign: the named one when it is in service and free (409 `room_unavailable` otherwise), else the
 * first free room (`free` is in the order to assign; none is 409 `no_availability`).
 */
export const assignRoom = (
  room: RoomFacts | undefined,
  free: ReadonlyArray<string>,
  reservation: CheckInFacts
): Either.Either<string, RoomUnavailable | NoAvailability> => {
  if (room !== undefined) {
    if (room.retired) return Either.left(new RoomUnavailable({ message: `Room ${room.number} is out of service` }))
    if (!free.includes(room.id)) {
      return Either.left(
        new RoomUnavailable({
          message: `Room ${room.number} is taken for a night from ${reservation.checkIn} to ${reservation.checkOut}`
        })
      )
    }
    return Either.right(room.id)
  }
  const first = free[0]
  if (first === undefined) {
    return Either.left(
      new NoAvailability({
        message:
          `No ${reservation.roomTypeName} room is free for every night from ${reservation.checkIn} to ${reservation.checkOut}`
      })
    )
  }
  return Either.right(first)
}
