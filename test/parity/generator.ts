/**
 * The seeded session generator. A session is a config, a few agents, and a
 * sequence of steps. Each agent works from a small pool of actions and has a
 * habit (sticky, ping-pong, wandering), so repeats, ping-pong and failure
 * streaks all happen; human messages, plugin notices and other inbox traffic are
 * interleaved, and the operator answers asks in one of several styles. Some
 * runs of parallel-safe calls become one model step's pool (pools.ts).
 */
import type { Answer } from '../support/fake-host.js';
import { generateAction, type Action } from './actions.js';
import { generateConfig } from './configs.js';
import { deriveSeed, Rng } from '../support/prng.js';
import { assignPools } from './pools.js';
import { generateBody, tagBody } from './results.js';
import { restartSideStream } from './side-stream.js';
import type { Session, Step } from './session.js';

type Habit = 'sticky' | 'pingpong' | 'wander' | 'bursts';
type Operator = 'approve' | 'decline' | 'none' | 'mixed';

interface AgentPlan {
  pool: Action[];
  draws: number[];
  habit: Habit;
  stay: number;
  operator: Operator;
  current: number;
  burstLeft: number;
}

function pluginNotice(rng: Rng): unknown {
  return {
    id: `repeat-tool-breaker-${rng.int(1, 1e6)}`,
    role: 'user',
    content: [{ type: 'text', text: 'CONVERGENCE_CHECK: an earlier notice' }],
    source: { kind: 'plugin', plugin: rng.pick(['repeat-tool-breaker', 'repeat-tool-reminder']), form: 'notice', summary: 'x × 7' },
  };
}

function otherMessages(rng: Rng): unknown[] {
  return rng.pick<() => unknown[]>([
    () => [],
    () => [pluginNotice(rng)],
    () => [pluginNotice(rng), pluginNotice(rng)],
    () => [{ role: 'assistant', content: [{ type: 'text', text: 'thinking' }], source: { kind: 'assistant' } }],
    () => [{ role: 'user', content: [{ type: 'text', text: 'no source' }] }],
    () => [{ role: 'user', content: [{ type: 'text', text: 'compaction' }], source: { kind: 'summary' } }],
    () => [pluginNotice(rng), { role: 'user', content: [{ type: 'text', text: 'and a human' }], source: { kind: 'user' } }],
    () => [null, 'text', { source: null }, { source: { kind: 'USER' } }],
  ])();
}

function answerFor(rng: Rng, operator: Operator): Answer {
  if (operator === 'mixed') return rng.pick<Answer>(['approve', 'decline', 'none']);
  if (rng.chance(0.1)) return rng.pick<Answer>(['approve', 'decline', 'none']);
  return operator;
}

function nextAction(rng: Rng, plan: AgentPlan): number {
  const size = plan.pool.length;
  if (size === 1) return 0;
  switch (plan.habit) {
    case 'pingpong':
      return rng.chance(0.85) ? (plan.current + 1) % Math.min(size, 2) : rng.int(0, size - 1);
    case 'bursts':
      if (plan.burstLeft > 0) {
        plan.burstLeft -= 1;
        return plan.current;
      }
      plan.burstLeft = rng.int(2, 14);
      return rng.int(0, size - 1);
    case 'sticky':
      return rng.chance(plan.stay) ? plan.current : rng.int(0, size - 1);
    default:
      return rng.int(0, size - 1);
  }
}

export interface GenerateOptions {
  /**
   * Group some runs of parallel-safe calls into pools (default true). `false`
   * gives the sessions exactly as the generator made them before pools existed.
   */
  pools?: boolean;
}

/** Session `index` of the run seeded with `seed`. */
export function generateSession(seed: number, index: number, options: GenerateOptions = {}): Session {
  const sessionSeed = deriveSeed(seed, index);
  const rng = new Rng(sessionSeed);
  restartSideStream(sessionSeed);
  const id = `${seed}/${index}`;
  const config = generateConfig(rng);
  const agents = rng.weighted([[6, 1], [3, 2], [1, 3]]);
  const localBias = rng.pick([0, 0.1, 0.3, 0.7]);
  // A shared catalogue, so two agents sometimes do the very same thing (separate windows).
  const catalogue: Action[] = [];
  const catalogueSize = rng.int(1, 7);
  for (let i = 0; i < catalogueSize; i += 1) catalogue.push(generateAction(rng, localBias));
  const plans: AgentPlan[] = [];
  for (let a = 0; a < agents; a += 1) {
    const pool = rng.sample(catalogue, rng.int(1, Math.min(4, catalogue.length)));
    plans.push({
      pool,
      draws: pool.map(() => 0),
      habit: rng.weighted<Habit>([[4, 'sticky'], [2, 'pingpong'], [2, 'bursts'], [1, 'wander']]),
      stay: rng.pick([0.5, 0.8, 0.9, 0.97]),
      operator: rng.weighted<Operator>([[3, 'none'], [2, 'approve'], [2, 'decline'], [2, 'mixed']]),
      current: 0,
      burstLeft: 0,
    });
  }
  const length = rng.weighted<() => number>([[3, () => rng.int(2, 12)], [4, () => rng.int(12, 30)], [3, () => rng.int(30, 60)], [1, () => rng.int(60, 90)]])();
  const humanRate = rng.pick([0, 0, 0.02, 0.06]);
  const otherRate = rng.pick([0, 0.03, 0.08]);
  const switchRate = agents > 1 ? rng.pick([0.2, 0.5, 0.9]) : 0;
  const steps: Step[] = [];
  let agent = 0;
  for (let s = 0; s < length; s += 1) {
    if (agents > 1 && rng.chance(switchRate)) agent = rng.int(0, agents - 1);
    const roll = rng.float();
    if (roll < humanRate) {
      steps.push({ kind: 'human', agent });
      continue;
    }
    if (roll < humanRate + otherRate) {
      steps.push({ kind: 'step', agent, messages: otherMessages(rng) });
      continue;
    }
    const plan = plans[agent] as AgentPlan;
    plan.current = nextAction(rng, plan);
    const action = plan.pool[plan.current] as Action;
    const n = plan.draws[plan.current] as number;
    plan.draws[plan.current] = n + 1;
    const drawn = action.draw(rng, n);
    const fail = rng.chance(action.failRate);
    const roll2 = rng.float();
    steps.push({
      kind: 'call',
      agent: roll2 < 0.01 ? null : agent,
      ...(roll2 >= 0.01 && roll2 < 0.02 ? { fresh: true } : {}),
      name: drawn.name,
      arguments: drawn.arguments,
      answer: answerFor(rng, plan.operator),
      body: tagBody(generateBody(rng, drawn.family, fail), s),
    });
  }
  return { id, config, agents, steps: options.pools === false ? steps : assignPools(steps, sessionSeed) };
}
