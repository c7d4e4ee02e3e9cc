import * as PgTypes from "@effect/sql-pg/PgTypes"

// An array bound as one parameter with its element type named. The driver types an array parameter by its
// elements (a string array is text[], a number array int4[] or float8[]), and an array with no element to go
// by, all nulls, cannot be typed at all: the statement fails before it is sent. Columns written from arrays
// whose entries may all be null (a folio line's service, quantity, night, the line it reverses) go through here.

const arrayOids = {
  uuid: PgTypes.OID.uuidArray,
  integer: PgTypes.OID.int4Array,
  numeric: PgTypes.OID.numericArray,
  date: PgTypes.OID.dateArray,
  text: PgTypes.OID.textArray,
  boolean: PgTypes.OID.boolArray
} as const

/** `values` as an array of `element` (nulls and all): uuids and numerics as strings, dates as `YYYY-MM-DD`. */
export const arrayOf = (element: keyof typeof arrayOids, values: ReadonlyArray<unknown>): PgTypes.Parameter => ({
  [PgTypes.ParameterTypeId]: PgTypes.ParameterTypeId,
  oid: arrayOids[element],
  value: values
})
