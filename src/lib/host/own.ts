/**
 * Strings that outlive a call must own their characters. V8 shares storage
 * between a string and its slices and concatenations: an 800-character head of
 * a 10 MB result, or a 64-character key head cut from a 1 MB fingerprint,
 * keeps the whole parent alive for as long as it is held (P6).
 */

/**
 * A copy of `text` with storage of its own. Appending a character gives a fresh
 * string (short) or a rope (long); slicing the rope flattens it into new
 * storage first, so the result never points into `text`'s parent. This is
 * several times cheaper than a structured clone, and memory.test.ts checks it.
 */
export function own(text: string): string {
  return `${text} `.slice(0, -1);
}
