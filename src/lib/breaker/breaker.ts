/**
 * The breaker: the four hook algorithms over the tracks (tracks/index.ts).
 * The guard is the only counter; pre-execute only asks, post-execute only
 * settles outcomes, and a human message resets. Every track's hits meet one
 * gate (gate.ts), so there is one way to get stuck; the breaker commits the
 * call to the window and delivers the notices in gate order.
 *
 * Each call is judged by its agent's policy (policy.ts), fixed when the call is
 * first seen: the load-time config, until settings change while the plugin runs.
 * A track is created when the first policy that turns it on is met.
 */
import type { BreakerConfig } from '../config/config.js';
import type { Agent, Notice, PreStepPayload } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { own } from '../host/own.js';
import { createPolicyBook, type Policy, type PolicyBook } from '../policy/policy.js';
import { askMessage, denyMessage, quoteResult, spentMessage } from '../text/message.js';
import { TRACKS } from '../tracks/index.js';
import type { GateHit, Judgement, Track } from '../tracks/track.js';
import { createTurns, type Turns } from '../tracks/turn.js';
import { createAllowanceBook, type AllowanceBook } from './allowance.js';
import { blockingHits, committedKeys, exemptUses, judgeAll, quoteOf, spentKeys } from './gate.js';
import { createReader, type Call } from './measure.js';

export interface Breaker {
  /** `tools/pre-execute`: an ask decision at the gate, or `undefined` to pass on. */
  ask(exec: unknown): { kind: 'ask'; reason: string } | undefined;
  /** `ctx.tools.guard`: a denial, or `undefined` to allow. Counts the call. */
  guard(exec: unknown): string | undefined;
  /** `tools/post-execute`: settles the outcome and returns the notices owed, in gate order. */
  settle(exec: unknown, result: unknown): Notice[];
  /** `agent/pre-step`: a human message among the claimed ones resets that agent (and gives it the latest settings). */
  reset(payload: PreStepPayload): void;
  /** A saved settings change: tightening reaches agents at once, the rest at their next human message. */
  configure(cfg: BreakerConfig): void;
  /** The configuration the agent's next call is judged by. */
  configOf(agent: Agent): BreakerConfig;
}

interface State {
  readonly turns: Turns;
  readonly policies: PolicyBook;
  read: (exec: unknown) => Call | null;
  /** Per agent, the call whose ask is outstanding: its answer is known once the agent's next call reaches policy (P8). */
  readonly asking: WeakMap<Agent, Call>;
  /** The tracks created so far, by index in TRACKS. */
  readonly created: (Track | undefined)[];
  /** The approved exemptions' allowances, once a policy sets `exemptionCeiling`. */
  allowances: AllowanceBook | null;
}

function allowanceBook(state: State, ceiling: number): AllowanceBook {
  return (state.allowances ??= createAllowanceBook(ceiling));
}

/** Declined, unattended or cancelled: the measures are refused and spent though the call never ran. */
function refuse(state: State, call: Call, asked: readonly GateHit[]): void {
  call.asked = null;
  if (state.asking.get(call.agent) === call) state.asking.delete(call.agent);
  call.denied = true;
  state.turns.refuse(call.agent, asked.map((hit) => hit.key));
  state.turns.commit(call.agent, committedKeys(call, asked), call.policy.cfg.window);
  for (const track of call.tracks) track.attempted?.(call);
}

/**
 * DSH runs an agent's policy one call at a time, so when its next call reaches
 * policy an earlier ask the guard never consumed was not approved. Within a
 * pool that call has not settled yet; refusing it now keeps the operator from
 * being asked again about the same measures in the same step (P8).
 */
function answerEarlierAsk(state: State, call: Call): void {
  const earlier = state.asking.get(call.agent);
  if (earlier === undefined || earlier === call) return;
  if (earlier.asked === null) state.asking.delete(call.agent);
  else refuse(state, earlier, earlier.asked);
}

function ask(state: State, exec: unknown): { kind: 'ask'; reason: string } | undefined {
  const call = state.read(exec);
  if (call === null) return undefined;
  answerEarlierAsk(state, call);
  const { cfg } = call.policy;
  if (cfg.onLimit !== 'ask') return undefined;
  const judged = judgeAll(call);
  // A spent allowance is denied by the guard without a second ask.
  if (state.allowances !== null && cfg.exemptionCeiling !== null && spentKeys(state.allowances, cfg.exemptionCeiling, call.agent, exemptUses(state.turns, call, judged)).length > 0) {
    return undefined;
  }
  const hits = blockingHits(state.turns, call, judged);
  // A refused measure is denied by the guard without asking again this turn.
  if (hits.length === 0 || hits.some((hit) => state.turns.isRefused(call.agent, hit.key))) return undefined;
  call.asked = hits;
  state.asking.set(call.agent, call);
  // The host keeps both texts; copies do not pin the huge fingerprints they quote (P6).
  return { kind: 'ask', reason: own(askMessage(call.name, hits, cfg.exemptionCeiling)) };
}

/** A declined ask never reaches the guard: reaching it means the operator approved. Returns the keys exempted. */
function takeApproval(state: State, call: Call): readonly string[] {
  const approved = call.asked;
  if (approved === null) return [];
  call.asked = null;
  state.asking.delete(call.agent);
  const granted = approved.map((hit) => hit.key);
  state.turns.exempt(call.agent, granted);
  const ceiling = call.policy.cfg.exemptionCeiling;
  if (ceiling !== null) allowanceBook(state, ceiling).grant(call.agent, granted);
  return granted;
}

/** The guard's denial, if any; `uses` are the exemptions the call draws on that the allowance counts. */
function deny(state: State, call: Call, judged: readonly Judgement[], uses: readonly string[]): string | undefined {
  const { agent, policy: { cfg } } = call;
  const ceiling = cfg.exemptionCeiling;
  const spent = spentKeys(state.allowances, ceiling, agent, uses);
  if (spent.length > 0 && ceiling !== null) {
    call.denied = true;
    const quotes = spent.map((key) => quoteOf(call, judged, key));
    return own(spentMessage(call.name, quotes, ceiling, state.turns.lastResult(agent)));
  }
  const hits = blockingHits(state.turns, call, judged);
  if (hits.length === 0) return undefined;
  call.denied = true;
  state.turns.commit(agent, committedKeys(call, hits), cfg.window);
  const refused = hits.every((hit) => state.turns.isRefused(agent, hit.key));
  return own(denyMessage({ name: call.name, hits, lastResult: state.turns.lastResult(agent), refused }));
}

function guard(state: State, exec: unknown): string | undefined {
  const call = state.read(exec);
  if (call === null) return undefined;
  const { agent, policy: { cfg } } = call;
  answerEarlierAsk(state, call);
  const granted = takeApproval(state, call);
  const judged = judgeAll(call);
  // The attempt counts whatever the verdict: a denied call is the model going round all the same.
  for (const track of call.tracks) track.attempted?.(call);
  // The approved call itself is what the operator said yes to; the allowance counts the calls after it.
  const uses = state.allowances === null || cfg.exemptionCeiling === null ? [] : exemptUses(state.turns, call, judged).filter((key) => !granted.includes(key));
  const denial = deny(state, call, judged, uses);
  if (denial !== undefined) return denial;
  call.tracks.forEach((track, at) => {
    const notice = track.advise?.(call, judged[at] as Judgement) ?? null;
    if (notice !== null) (call.advised ??= [])[at] = notice;
  });
  state.allowances?.spend(agent, uses);
  state.turns.commit(agent, call.marks.map((mark) => mark.key), cfg.window);
  return undefined;
}

/** The notices owed for the call, in gate order: each track's from settling, then its advisory from the guard. */
function settle(state: State, exec: unknown, result: unknown): Notice[] {
  const call = state.read(exec);
  if (call === null) return [];
  const ran = call.asked === null && !call.denied;
  if (call.asked !== null) refuse(state, call, call.asked);
  const owed: Notice[] = [];
  call.tracks.forEach((track, at) => {
    const learned = ran ? (track.learn?.(call, result) ?? null) : null;
    if (learned !== null) owed.push(learned);
    const advised = call.advised?.[at];
    if (advised !== undefined && advised !== null) owed.push(advised);
  });
  call.advised = null;
  if (ran) {
    const head = quoteResult(result, call.policy.cfg.resultPreviewChars);
    if (head !== '') state.turns.setLastResult(call.agent, head);
  }
  return owed;
}

function hasHumanMessage(messages: unknown): boolean {
  // An unreadable message is not evidence of a human.
  return Array.isArray(messages) && messages.some((message) => safeMember(safeMember(message, 'source'), 'kind') === 'user');
}

function reset(state: State, payload: PreStepPayload): void {
  const agent = payload.agent;
  const keyable = (typeof agent === 'object' && agent !== null) || typeof agent === 'function';
  if (!keyable || !hasHumanMessage(payload.messages)) return;
  state.turns.reset(agent as Agent);
  for (const track of state.created) track?.clear(agent as Agent);
  state.allowances?.reset(agent as Agent);
  state.policies.reset(agent as Agent);
}

/** The tracks a policy turns on, in gate order, each created the first time a policy needs it. */
function tracksFor(state: State): (policy: Policy) => readonly Track[] {
  const known = new WeakMap<Policy, readonly Track[]>();
  return (policy) => {
    let tracks = known.get(policy);
    if (tracks === undefined) {
      tracks = TRACKS.flatMap((module, at) => (module.isOn(policy.cfg) ? [(state.created[at] ??= module.create(state.turns, policy.cfg))] : []));
      known.set(policy, tracks);
    }
    return tracks;
  };
}

export function createBreaker(initial: BreakerConfig): Breaker {
  const turns = createTurns(initial.window);
  const policies = createPolicyBook(initial, (agent, before, after) => {
    // A ceiling set mid-turn covers exemptions approved before it: their allowance starts now.
    const ceiling = after.cfg.exemptionCeiling;
    if (before.cfg.exemptionCeiling === null && ceiling !== null) allowanceBook(state, ceiling).grant(agent, turns.exempted(agent));
  });
  const state: State = { turns, policies, asking: new WeakMap(), created: [], allowances: null, read: () => null };
  state.read = createReader(policies, tracksFor(state));
  return {
    ask: (exec) => ask(state, exec),
    guard: (exec) => guard(state, exec),
    settle: (exec, result) => settle(state, exec, result),
    reset: (payload) => reset(state, payload),
    configure: (cfg) => policies.update(cfg),
    configOf: (agent) => policies.of(agent).cfg,
  };
}
