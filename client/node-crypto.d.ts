/**
 * The part of `node:crypto` that the host half's modules use, typed for the
 * card's type check (which has no Node typings: the card runs in a page). The
 * card bundles the track modules for their `meta` and never runs a track; in
 * the bundle `node:crypto` is a stub that throws if called
 * (tools/build-client/client-bundle.ts).
 */
declare module 'node:crypto' {
  interface Hash {
    update(data: string, encoding?: 'utf8' | 'utf16le'): Hash;
    digest(encoding: 'base64' | 'base64url' | 'hex'): string;
  }
  export function createHash(algorithm: 'sha256'): Hash;
  export function randomUUID(): string;
}
