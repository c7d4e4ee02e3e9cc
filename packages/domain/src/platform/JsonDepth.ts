// How deeply a JSON text nests, found by one pass over the raw text with a counter (no recursion), so that a
// body nested thousands of levels deep is refused before `JSON.parse` and the recursive code after it (decode
// error formatting, the idempotency fingerprint) could overflow the stack (deeper than 64 levels
// is 400 `invalid_json`).

/** The deepest a request body may nest: objects and arrays inside each other. */
export const maxDepth = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * Whether `text` opens more than `limit` objects or arrays inside each other. Brackets inside strings do not
 * count; the text need not be valid JSON (what `JSON.parse` refuses it reports itself). Stops at the first
 * bracket past the limit.
 */
export const exceeds = (text: string, limit: number = maxDepth): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) {
      inString = true
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--
    }
  }
  return false
}
