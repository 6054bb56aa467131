/**
 * Replaying one episode through one system on the replay host (the DSH
 * pipeline's hook order, tools/lib/replay-host.ts): each call goes through
 * pre-execute, the operator (none is there: an ask is not granted, as in
 * headless DSH), the guards, then post-execute with the recorded result — or,
 * for a call the system stopped, the host's error. The recorded next call
 * follows a denial all the same: the model's reaction to it is not in the data,
 * so the eval measures where a system first notices and first gates, not what a
 * stop would have saved.
 */
import { member } from '../../src/lib/host/member.js';
import { denialResult, ReplayHost } from '../lib/replay-host.js';
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
}

export async function replayEpisode(episode: Episode, system: System): Promise<CallOutcome[]> {
  const host = new ReplayHost(system.apply, system.config);
  const agents = new Map<string, object>();
  const outcomes: CallOutcome[] = [];
  const agentOf = (id: string): object => {
    let agent = agents.get(id);
    if (agent === undefined) agents.set(id, (agent = { id }));
    return agent;
  };
  try {
    for (const event of episode.events) {
      if (event.kind === 'human') {
        const message = { role: 'user', content: [{ type: 'text', text: event.text }], source: { kind: 'user' } };
        for (const agent of agents.values()) await host.step(agent, [message]);
        continue;
      }
      const agent = agentOf(event.agent);
      const exec = { callId: `call-${event.index}`, name: event.name, arguments: event.arguments, agent, signal: new AbortController().signal };
      const gate = await host.gate(exec, 'none');
      const result = gate.denied === undefined ? event.result : denialResult(gate.denied);
      const notices: string[] = [];
      for (const notice of await host.settle(exec, result)) {
        const source = member(notice, 'source');
        if (member(source, 'plugin') !== system.plugin) continue;
        const summary = member(source, 'summary');
        notices.push(typeof summary === 'string' ? summary : '');
      }
      outcomes.push({ index: event.index, notices, denied: gate.denied !== undefined, ...(gate.denied === undefined ? {} : { reason: gate.denied }) });
    }
  } finally {
    host.dispose();
  }
  return outcomes;
}
