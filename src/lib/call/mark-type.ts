/**
 * What a mark is (call/mark.ts makes them), apart from how it is made: a
 * shared reading holds its marks (call/fingerprint.ts `SharedReading`) by this
 * shape, with no import of the module that makes them.
 */
export interface Mark {
  readonly key: string;
  /** The key's measure (`exact`, `cmd`, `host`, …), read once: the tracks ask for it on every judge. */
  readonly measure: string;
  readonly cap: number;
  readonly rank: number;
  /** The fingerprint through the preview rule, for message bodies. */
  readonly quote: string;
  /** The fingerprint cut for a notice summary (P7). */
  readonly label: string;
  /** A short stand-in for `key`, for the books that only look keys up (call/identity.ts `lookupKey`). */
  readonly lookup: string;
}
