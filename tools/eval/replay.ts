/**
 * Replaying one episode through one system on the replay host (the DSH
 * pipeline's hook order, tools/lib/replay-host.ts). Each call is a model step:
 * `agent/pre-step` first (no new messages), then pre-execute, the operator
 * (none is there: an ask is not granted, as in headless DSH), the guards, then
 * post-execute with the recorded result — or, for a call the system stopped,
 * the host's error. A human message is claimed by the pre-step of the step it
 * opens.
 *
 * The recorded next call follows a denial all the same: the model's reaction to
 * it is not in the data, so the eval measures where a system first notices and
 * first gates. A step the system rejects (`{ kind: 'reject' }`) ends the turn:
 * the run is handed back, and the rest of the session is not replayed for it.
 */
import { member } from '../../src/lib/host/member.js';
import type { ToolResult } from '../../src/lib/host/types.js';
import { denialResult, ReplayHost, type StepPosition } from '../lib/replay-host.js';
import type { Episode } from './episode.js';
import type { System } from './systems.js';

export interface CallOutcome {
  readonly index: number;
  /** `source.summary` of each of the system's notices attached to the call. */
  readonly notices: readonly string[];
  /** The call did not run: the system denied it, or asked and was not answered. */
  readonly denied: boolean;
  /** Why, as the model would read it (the denial or the host's answer to an unanswered ask). */
  readonly reason?: string;
  /** The system's ask reason, as the operator's panel would show it, when it asked. */
  readonly asked?: string;
  /**
   * Characters of the system's own text the model reads with this call: its
   * denial, its notices, and what it added to the call's result.
   */
  readonly modelChars: number;
}

export interface Replayed {
  readonly calls: readonly CallOutcome[];
  /** The index of the call whose step the system rejected: the run was handed back before it. */
  readonly stoppedAt?: number;
}

/** The characters of the text blocks of a content list. */
function textLength(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let length = 0;
  for (const block of content) {
    const text = member(block, 'type') === 'text' ? member(block, 'text') : undefined;
    if (typeof text === 'string') length += text.length;
  }
  return length;
}

/** Whether a notice is the system's: its own plugin name, or any plugin's when the system is alone on its host. */
function isOwn(notice: unknown, system: System): boolean {
  const source = member(notice, 'source');
  return system.plugin === undefined ? member(source, 'kind') === 'plugin' : member(source, 'plugin') === system.plugin;
}

/** Per agent, where its steps stand, and whether a human message already opened the step of its next call. */
class Steps {
  private readonly agents = new Map<string, { agent: object; turn: number; step: number; opened: boolean }>();

  agentOf(id: string): object {
    return this.entry(id).agent;
  }

  private entry(id: string): { agent: object; turn: number; step: number; opened: boolean } {
    let entry = this.agents.get(id);
    if (entry === undefined) this.agents.set(id, (entry = { agent: { id }, turn: 1, step: 0, opened: false }));
    return entry;
  }

  /** A human message: a new turn for every agent met so far, its first step opened by the message. */
  human(): { agent: object; at: StepPosition }[] {
    return [...this.agents.values()].map((entry) => {
      if (entry.step > 0) entry.turn += 1;
      Object.assign(entry, { step: 1, opened: true });
      return { agent: entry.agent, at: { turn: entry.turn, step: 1 } };
    });
  }

  /** The step of an agent's next call; `undefined` when a human message already opened it. */
  next(id: string): StepPosition | undefined {
    const entry = this.entry(id);
    if (entry.opened) {
      entry.opened = false;
      return undefined;
    }
    entry.step += 1;
    return { turn: entry.turn, step: entry.step };
  }
}

const rejects = (decision: unknown): boolean => member(decision, 'kind') === 'reject';

export async function replayEpisode(episode: Episode, system: System): Promise<Replayed> {
  const host = new ReplayHost(system.apply, system.config);
  const steps = new Steps();
  const calls: CallOutcome[] = [];
  let stopped = false;
  try {
    for (const event of episode.events) {
      if (event.kind === 'human') {
        const message = { role: 'user', content: [{ type: 'text', text: event.text }], source: { kind: 'user' } };
        for (const { agent, at } of steps.human()) stopped = rejects(await host.step(agent, [message], at)) || stopped;
        if (stopped) break;
        continue;
      }
      const agent = steps.agentOf(event.agent);
      const at = steps.next(event.agent);
      if (at !== undefined && rejects(await host.step(agent, [], at))) {
        stopped = true;
        break;
      }
      calls.push(await replayCall(host, system, agent, event.index, event.name, event.arguments, event.result));
    }
  } finally {
    host.dispose();
  }
  return stopped ? { calls, stoppedAt: calls.length } : { calls };
}

/** One call through the pipeline: what the system decided, and what of its text reached the model. */
async function replayCall(host: ReplayHost, system: System, agent: object, index: number, name: string, args: unknown, recorded: ToolResult): Promise<CallOutcome> {
  const exec = { callId: `call-${index}`, name, arguments: args, agent, signal: new AbortController().signal };
  const gate = await host.gate(exec, 'none');
  const result = gate.denied === undefined ? recorded : denialResult(gate.denied);
  const after = await host.afterCall(exec, result);
  const notices: string[] = [];
  let modelChars = gate.by === 'plugin' ? (gate.denied ?? '').length : 0;
  for (const notice of after.contexts) {
    if (!isOwn(notice, system)) continue;
    const summary = member(member(notice, 'source'), 'summary');
    notices.push(typeof summary === 'string' ? summary : '');
    modelChars += textLength(member(notice, 'content'));
  }
  // What a listener added to the result (P13's explanation of a refused call).
  if (after.content !== undefined) modelChars += Math.max(0, textLength(after.content) - textLength(result.content));
  return {
    index,
    notices,
    denied: gate.denied !== undefined,
    ...(gate.denied === undefined ? {} : { reason: gate.denied }),
    ...(gate.asked === undefined ? {} : { asked: gate.asked }),
    modelChars,
  };
}
