/**
 * The environment track (on with the timeout track, under its setting): calls timing
 * out one after another, whatever they run (`ls`, `cat`, `pip --version` …).
 * That is no job too big for its time but an environment that stopped
 * answering: a prompt or a pager holding the terminal, a daemon that never came
 * up. The timeout track counts per program, so fifteen different commands
 * timing out in a row never add up there.
 *
 * The stretch counts different commands (shell/program.ts `commandNamesOf`):
 * at the timeout setting's `warnAt` of them in a row the model is told, and
 * past its `limit` the next shell call meets the gate. Any call that returns
 * in time ends the stretch; one long job timing out again and again, however
 * respelled, is one command, which the timeout track counts.
 */
import type { Agent, Notice } from '../host/types.js';
import { own } from '../host/own.js';
import { keepShape } from '../host/shape.js';
import { identityKey } from '../call/identity.js';
import { commandNamesOf } from '../shell/program.js';
import type { HitWords } from '../text/message.js';
import { createNotice, trackSummary } from '../text/notice.js';
import { timedOut } from './timeout.js';
import { TIMEOUTS } from './timeout.meta.js';
import { environmentMeta } from './environment.meta.js';
import { NO_HITS, type CallTrackModule, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

/** Most commands one stretch remembers by name; past them, each command timing out is counted as another (a repeat of one is rare that far in). */
const STRETCH_KEPT = 64;

/** An agent's stretch: the commands that timed out in a row, by name, and how many more came once the names were full. */
class Stretch {
  readonly names = new Set<string>();
  more = 0;

  get count(): number {
    return this.names.size + this.more;
  }

  add(name: string): void {
    if (this.names.has(name)) return;
    // Stryker disable next-line EqualityOperator: one name more or less kept by name changes only which repeats far in are told apart
    if (this.names.size < STRETCH_KEPT) this.names.add(name);
    else this.more += 1;
  }
}

/** A stretch with a name, held for the process's life: it keeps the class when no agent holds a stretch (host/shape.ts). */
// Stryker disable all: the kept stretch is never read; only its shape is
function keptStretch(): Stretch {
  const stretch = new Stretch();
  stretch.add('');
  return stretch;
}
keepShape(keptStretch());
// Stryker restore all

/** The key the environment's gate is exempted and refused under. */
// Stryker disable next-line StringLiteral: any key of its own serves: the gate is exempted and refused under it, and quoted by `quote`
export const ENVIRONMENT_KEY = identityKey('prog:*');

/** Environment stage 1: every call runs out of time, whatever it runs. */
export function environmentMessage(count: number): string {
  return (
    `CONVERGENCE_CHECK: your last calls ran ${count} different commands, and every one ran out of time. ` +
    'The environment is not answering: something holds the terminal (a prompt, a pager, an editor) or a service it waits on never came up. ' +
    'Another command will hang too. Find what holds it (a process waiting for input), or stop and say what you see.'
  );
}

/** The operator's ask (text/ask.ts): every command times out, whatever it runs. */
const ask: HitWords['ask'] = {
  what: (hit) => `the agent's last ${hit.count} different commands all ran out of time; the environment is not answering.`,
  also: (hit) => `${hit.count} different commands in a row that ran out of time`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `agent 最近运行的 ${hit.count} 个不同命令都超时了，运行环境没有响应。`,
  also: (hit) => `连续 ${hit.count} 个不同命令超时`,
};

const words: HitWords = {
  track: 'environment',
  listed: 8,
  why: (hit) => `${hit.count} different commands in a row ran out of time (limit ${hit.cap})`,
  line: (hit) => `${hit.count} different commands in a row ran out of time (limit ${hit.cap})`,
  note: 'Shell commands are blocked while the environment does not answer; a call that is not a shell command will run, and the next human message lifts the gate.',
  ask,
  zh,
};

function judge(stretches: WeakMap<Agent, Stretch>, shared: Shared, call: TrackedCall): Judgement {
  // Stryker disable next-line OptionalChaining: the track is made only when its setting is on
  const limit = TIMEOUTS.of(call.cfg)?.limit ?? null;
  const count = stretches.get(call.agent)?.count ?? 0;
  if (limit === null || call.command === undefined || count < limit || shared.isExempt(call.agent, ENVIRONMENT_KEY)) return NO_HITS;
  // Stryker disable next-line StringLiteral: the environment's words quote no detail (its `quote` is read in the operator's log)
  return { hits: [{ key: ENVIRONMENT_KEY, words, quote: 'prog:*', count, cap: limit, detail: '' }] };
}

/** The command names of a call that timed out, read only then; a tool that is no shell is its name. */
function commandNames(call: TrackedCall): readonly string[] {
  if (call.command === undefined) return [call.name];
  // Stryker disable next-line OptionalChaining,LogicalOperator: the timeout track's setting asks for the line (`needs`), so it is there; both read the same names
  return call.line?.commandNames() ?? commandNamesOf(call.command).map(own);
}

/** The stretch grows by a time-out's new commands and ends with a call that returned in time. */
function learn(stretches: WeakMap<Agent, Stretch>, shared: Shared, call: TrackedCall, settled: Settled): Notice | null {
  if (!timedOut(settled) || shared.isExempt(call.agent, ENVIRONMENT_KEY)) {
    stretches.delete(call.agent);
    return null;
  }
  const names = commandNames(call);
  let stretch = stretches.get(call.agent);
  if (stretch === undefined) stretches.set(call.agent, (stretch = new Stretch()));
  const before = stretch.count;
  for (const name of names) stretch.add(name);
  // Stryker disable next-line OptionalChaining: as in judge
  const warnAt = TIMEOUTS.of(call.cfg)?.warnAt ?? null;
  const count = stretch.count;
  // Stryker disable next-line ConditionalExpression: a shortcut: `before >= null` below holds for any count (null reads as 0)
  if (warnAt === null) return null;
  if (before >= warnAt || count < warnAt) return null;
  return createNotice(environmentMessage(count), trackSummary(SUMMARY, `${count} different commands in a row timed out`));
}

/** What its notices' summaries start with, its name (no measure to quote): `environment: 3 different commands in a row timed out`. */
const SUMMARY = environmentMeta.summary;

/** The environment track's books: each agent's stretch of time-outs, and the shared memory. */
interface EnvironmentBooks {
  readonly stretches: WeakMap<Agent, Stretch>;
  readonly shared: Shared;
}

export const environmentTrack = {
  meta: environmentMeta,
  words,
  create: (shared) => ({ stretches: new WeakMap<Agent, Stretch>(), shared }),
  hooks: {
    judge: ({ stretches, shared }, call) => judge(stretches, shared, call),
    learn: ({ stretches, shared }, call, settled) => learn(stretches, shared, call, settled),
    clear: ({ stretches }, agent) => void stretches.delete(agent),
  },
} satisfies CallTrackModule<EnvironmentBooks>;
