/**
 * A stored vocabulary value (a kind, a frequency, ...). Values are validated on the way in and the columns have
 * no CHECK constraint, so anything else is a broken database, hence a defect.
 */
export const oneOf = <const T extends string>(what: string, allowed: ReadonlyArray<T>, value: string): T => {
  const found = allowed.find((candidate) => candidate === value)
  if (found === undefined) throw new Error(`unexpected ${what} ${JSON.stringify(value)} in the database`)
  return found
}
