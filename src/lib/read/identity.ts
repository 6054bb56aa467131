/**
 * Identity keys (decision P6). The window stores what a fingerprint *is*, not
 * its text: short fingerprints as themselves, long ones as a head, a SHA-256
 * digest and the length. Messages always quote the current call's fingerprints,
 * which are at hand in full, so nothing stored ever needs the whole text.
 */
import { createHash } from 'node:crypto';

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

/**
 * A short stand-in for a key, for books that only ever look keys up and never
 * quote them (the stale track's results, the runs since a change): 22
 * characters whatever the key, so a book of thousands of actions stays small.
 */
export function lookupKey(key: string): string {
  return createHash('sha256').update(key, 'utf16le').digest('base64url').slice(0, 22);
}
