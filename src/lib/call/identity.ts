/**
 * Identity keys (decision P6). The window stores what a fingerprint *is*, not
 * its text: short fingerprints as themselves, long ones as a head, a SHA-256
 * digest and the length. Messages always quote the current call's fingerprints,
 * which are at hand in full, so nothing stored ever needs the whole text.
 */
import { createHash } from 'node:crypto';
import { keepShape } from '../host/shape.js';

// identityKey is inlined where marks are made, the hash object's shape with it: one hash,
// never finished, kept for the process's life keeps that shape (host/shape.ts).
keepShape(createHash('sha256').update('', 'utf16le'));

/** Fingerprints up to this length are their own key. */
export const KEY_TEXT_LIMIT = 256;
const KEY_HEAD = 64;

/** The key a fingerprint is counted under; at most ~130 characters for any input. */
export function identityKey(fp: string): string {
  if (fp.length <= KEY_TEXT_LIMIT) return fp;
  // UTF-16 code units, so strings differing only in lone surrogates stay distinct.
  const digest = createHash('sha256').update(fp, 'utf16le').digest('base64url');
  return `${fp.slice(0, KEY_HEAD)}\u0000${digest}/${fp.length}`;
}

/** Murmur3's finalizer: every input bit reaches every output bit. */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A short stand-in for a key, for books that only ever look keys up and never
 * quote them (the outcome memory, memory/outcomes.ts): four UTF-16 code units
 * whatever the key, so a book of thousands of actions stays small.
 * Two 32-bit multiplicative lanes over the key's UTF-16 code units, two units
 * a step, each mixed at the end: 64 bits, so two of a book's few hundred keys
 * share a stand-in with odds of about 1 in 10^14. Made on every call (an
 * `exact:` key is new each time), so it is a loop over the key, not a
 * cryptographic digest: SHA-256 here was over a quarter of what the preset
 * added to a call besides `act:` (docs/performance.md).
 */
export function lookupKey(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x6a09e667 ^ key.length;
  // Two code units a step (a lone last one pairs with 0; the length is in `b`'s seed).
  for (let i = 0; i < key.length; i += 2) {
    const code = key.charCodeAt(i) | ((key.charCodeAt(i + 1) | 0) << 16);
    a = Math.imul(a ^ code, 0x01000193);
    a ^= a >>> 13;
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  const high = mix(a ^ Math.imul(b, 0x27d4eb2d));
  const low = mix(b);
  // Four UTF-16 code units: a stand-in is only ever compared, never shown, and writing it costs no radix conversion.
  return String.fromCharCode(high & 0xffff, high >>> 16, low & 0xffff, low >>> 16);
}
