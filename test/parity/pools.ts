/**
 * Which calls of a generated session are one model step's parallel calls. DSH
 * pools only tools whose `isConcurrencySafe` says so; any other call is a barrier
 * that runs alone, so only a run of consecutive parallel-safe calls by one agent
 * can become a pool. The draws come from a stream of their own, so the calls,
 * results and answers of a session are the ones its seed gave before pools
 * existed; only the order the hooks see them in changes.
 */
import { deriveSeed, Rng } from '../support/prng.js';
import type { Step } from './session.js';

/**
 * Tools whose `isConcurrencySafe` returns true in DSH 0.1.0-rc.8:
 * `@deepseek-ai/dsh-tool-fs` (`read`, `read_image`), `@deepseek-ai/dsh-tool-web`
 * (`web_search`, `web_fetch`) and `@deepseek-ai/dsh-tool-subagent` (`subagent`).
 * Names are matched exactly, as the tool registry does.
 */
export const PARALLEL_SAFE: ReadonlySet<string> = new Set(['read', 'read_image', 'web_search', 'web_fetch', 'subagent']);

/** The pool stream is derived from the session's seed with this index (no other stream uses it). */
const POOL_STREAM = 0x9001;

type CallStep = Extract<Step, { kind: 'call' }>;

function poolable(step: Step | undefined): step is CallStep {
  return step?.kind === 'call' && step.agent !== null && step.fresh !== true && PARALLEL_SAFE.has(step.name);
}

/**
 * Group some runs of consecutive parallel-safe calls by one agent into pools of
 * 2–8 calls. `sessionSeed` is the session's own seed; how often a session pools
 * (never, a quarter, half or most of the chances) is drawn per session, so some
 * sessions stay sequential and some look like a model that reads in batches.
 */
export function assignPools(steps: readonly Step[], sessionSeed: number): Step[] {
  const rng = new Rng(deriveSeed(sessionSeed, POOL_STREAM));
  const rate = rng.pick([0, 0.25, 0.5, 0.8]);
  const out: Step[] = [...steps];
  let pool = 0;
  for (let at = 0; at < out.length; ) {
    const first = out[at];
    if (!poolable(first) || !rng.chance(rate)) {
      at += 1;
      continue;
    }
    const size = rng.weighted<() => number>([[5, () => 2], [3, () => 3], [2, () => 4], [1, () => rng.int(5, 8)]])();
    let end = at + 1;
    while (end < out.length && end - at < size) {
      const next = out[end];
      if (!poolable(next) || next.agent !== first.agent) break;
      end += 1;
    }
    if (end - at > 1) {
      pool += 1;
      for (let i = at; i < end; i += 1) out[i] = { ...(out[i] as CallStep), pool };
    }
    at = end;
  }
  return out;
}
