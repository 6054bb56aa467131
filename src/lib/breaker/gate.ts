/**
 * The one gate every track's hits go through: exemptions take keys out,
 * a refused key is denied without asking again, a spent allowance is denied
 * outright, and what is left is asked about or denied. Keys of the call's own
 * measures take slots in the window; a key of a track's own (a cycle) does not.
 */
import type { Agent } from '../host/types.js';
import type { GateHit, Judgement } from '../tracks/track.js';
import type { Turns } from '../tracks/turn.js';
import type { AllowanceBook } from './allowance.js';
import type { Call } from './measure.js';

/** Every track's judgement of the call, in gate order. */
export function judgeAll(call: Call): Judgement[] {
  return call.tracks.map((track) => track.judge(call));
}

/** Whether a key is one of the call's own measures (a track's own key, such as a cycle's, is not). */
function isMeasureKey(call: Call, key: string): boolean {
  return call.marks.some((mark) => mark.key === key);
}

/** The hits that block, in gate order: every track's, exempt keys taken out. */
export function blockingHits(turns: Turns, call: Call, judged: readonly Judgement[]): GateHit[] {
  const hits: GateHit[] = [];
  for (const judgement of judged) {
    for (const hit of judgement.hits) if (!turns.isExempt(call.agent, hit.key)) hits.push(hit);
  }
  return hits;
}

/** The exemptions the call would use: its exempt measures, then the exempt keys of tracks' own hits (a cycle past its limit). */
export function exemptUses(turns: Turns, call: Call, judged: readonly Judgement[]): string[] {
  const uses = call.marks.filter((mark) => turns.isExempt(call.agent, mark.key)).map((mark) => mark.key);
  for (const judgement of judged) {
    for (const hit of judgement.hits) if (!isMeasureKey(call, hit.key) && turns.isExempt(call.agent, hit.key)) uses.push(hit.key);
  }
  return uses;
}

/** How a spent-allowance denial quotes a key: a track's own hit by its quote, a measure by its mark's. */
export function quoteOf(call: Call, judged: readonly Judgement[], key: string): string {
  for (const judgement of judged) {
    for (const hit of judgement.hits) if (hit.key === key && !isMeasureKey(call, key)) return hit.quote;
  }
  return call.marks.find((mark) => mark.key === key)?.quote ?? key;
}

/** The keys whose approved allowance is used up, of those the call would use. */
export function spentKeys(allowances: AllowanceBook | null, ceiling: number | null, agent: Agent, uses: readonly string[]): string[] {
  if (allowances === null || ceiling === null) return [];
  return uses.filter((key) => allowances.isSpent(agent, key, ceiling));
}

/** What a denial or a refusal commits to the window: only the measures that hit; the call never touched its other resources. */
export function committedKeys(call: Call, hits: readonly GateHit[]): string[] {
  return hits.filter((hit) => isMeasureKey(call, hit.key)).map((hit) => hit.key);
}
