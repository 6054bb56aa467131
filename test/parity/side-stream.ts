/**
 * A second random stream per session, for the words drawn from the tables
 * (test/support/vocabulary.ts). The main stream makes every draw it made before
 * the tables were drawn from, so a seed still gives the sessions it gave; the
 * table words are laid over them from this stream.
 */
import { deriveSeed, Rng } from '../support/prng.js';

let stream = new Rng(1);

/** Called once at the start of each generated session. */
export function restartSideStream(sessionSeed: number): void {
  stream = new Rng(deriveSeed(sessionSeed, 0x7ab1e));
}

/** The side stream of the session being generated. */
export function side(): Rng {
  return stream;
}

/** The side stream as a bare `() => number`, for the vocabulary's helpers. */
export function sideRandom(): number {
  return stream.float();
}
