/**
 * The one gate every track's hits go through: exemptions take keys out,
 * a refused key is denied without asking again, an approval used up to the
 * exemption ceiling is denied outright, and what is left is asked about or denied. Keys of the call's own
 * measures take slots in the window; a key of a track's own (a cycle) does not.
 */
import type { Agent } from '../host/types.js';
import type { Mark } from '../call/mark.js';
import type { Hit, Judgement, Track } from '../tracks/track.js';
import type { Turns } from '../memory/turn.js';
import type { CeilingBook } from './ceiling.js';
import type { CallRecord } from './record.js';

// The gate reads a call's judgements in its ask and again in its guard: its loops are indexed, as an
// array iterator is an object a step wherever the optimiser does not see through it (judgements come in
// several array shapes: a frozen empty one, a track's own).

/** Every track's judgement of the call, in gate order. */
export function judgeAll(call: CallRecord): Judgement[] {
  const { tracks } = call;
  // Its length is known: one store of that size, not one grown by pushes.
  const judged = new Array<Judgement>(tracks.length);
  for (let at = 0; at < tracks.length; at += 1) {
    const track = tracks[at] as Track;
    judged[at] = track.hooks.judge(track.books, call);
  }
  return judged;
}

/** Whether a key is one of the call's own measures (a track's own key, such as a cycle's, is not). */
function isMeasureKey(call: CallRecord, key: string): boolean {
  const { marks } = call;
  for (let at = 0; at < marks.length; at += 1) if ((marks[at] as Mark).key === key) return true;
  return false;
}

/** No hit blocks: shared, so that a quiet call allocates no list (it is only read). */
const NONE: readonly Hit[] = Object.freeze([]);

/** The hits that block, in gate order: every track's, exempt keys taken out. */
export function blockingHits(turns: Turns, call: CallRecord, judged: readonly Judgement[]): readonly Hit[] {
  let hits: Hit[] | null = null;
  for (let at = 0; at < judged.length; at += 1) {
    const found = (judged[at] as Judgement).hits;
    for (let next = 0; next < found.length; next += 1) {
      const hit = found[next] as Hit;
      if (!turns.isExempt(call.agent, hit.key)) (hits ??= []).push(hit);
    }
  }
  return hits ?? NONE;
}

/**
 * The keys an approval could cover for the call: its measures, then tracks' own
 * keys that hit (a cycle past its limit). Only approved keys are counted against
 * the exemption ceiling, so the ceiling book picks out the exempt ones itself.
 */
export function keysOf(call: CallRecord, judged: readonly Judgement[]): string[] {
  const keys = call.marks.map((mark) => mark.key);
  for (let at = 0; at < judged.length; at += 1) {
    const found = (judged[at] as Judgement).hits;
    for (let next = 0; next < found.length; next += 1) {
      const { key } = found[next] as Hit;
      if (!isMeasureKey(call, key)) keys.push(key);
    }
  }
  return keys;
}

/** How a denial at the exemption ceiling quotes a key: by its hit while it hits, else by its measure's mark. */
export function quoteOf(call: CallRecord, judged: readonly Judgement[], key: string): string {
  for (const judgement of judged) {
    for (const hit of judgement.hits) if (hit.key === key) return hit.quote;
  }
  // No longer at its cap (the window moved on, a failure streak broke): one of the call's measures.
  for (const mark of call.marks) if (mark.key === key) return mark.quote;
  return key;
}

/** The keys of `keys` whose exemption has covered `ceiling` calls. */
export function keysAtCeiling(ceilings: CeilingBook, ceiling: number, agent: Agent, keys: readonly string[]): string[] {
  return keys.filter((key) => ceilings.reached(agent, key, ceiling));
}

/** What a denial or a refusal commits to the window: only the measures that hit; the call never touched its other resources. */
export function committedKeys(call: CallRecord, hits: readonly Hit[]): string[] {
  return hits.filter((hit) => isMeasureKey(call, hit.key)).map((hit) => hit.key);
}
