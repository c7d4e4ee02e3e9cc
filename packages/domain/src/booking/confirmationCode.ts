// Confirmation codes: short and human readable, shown to guests and staff, never a resource
// id. Eight characters from an alphabet without look-alikes (no 0/O, no 1/I), 32^8 ≈ 1.1e12 codes; uniqueness
// is the database's (a collision is retried with a fresh code).

/** 24 letters (no I, no O) and the digits 2 to 9: 32 symbols. */
export const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

export const codeLength = 8

/** A code from random bytes (at least `codeLength` of them); 32 symbols, so every byte maps without bias. */
export const confirmationCodeFrom = (bytes: ArrayLike<number>): string => {
  let code = ""
  for (let i = 0; i < codeLength; i++) code += codeAlphabet[(bytes[i] ?? 0) & 31]
  return code
}

export const isConfirmationCode = (s: string): boolean =>
  s.length === codeLength && [...s].every((c) => codeAlphabet.includes(c))
