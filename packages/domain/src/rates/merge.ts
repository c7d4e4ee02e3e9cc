// How a write body becomes stored fields: a POST leaves out what defaults, a PATCH leaves out what it keeps.
// `null` is a value (it clears a field); only a missing key (`undefined`) means "not sent".

/** A field a POST may leave out: missing is stored as `null`. */
export const orNull = <A>(value: A | null | undefined): A | null => (value === undefined ? null : value)

/** A field a PATCH may leave out: missing keeps the stored value. */
export const keep = <A>(sent: A | undefined, stored: A): A => (sent === undefined ? stored : sent)
