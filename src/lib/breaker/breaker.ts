/**
 * The breaker: the four hook algorithms over the tracks (tracks/index.ts).
 * The guard is the only counter; pre-execute only asks, post-execute only
 * settles outcomes, and a human message resets. Every track's hits meet one
 * gate (gate.ts), so there is one way to get stuck; the breaker commits the
 * call to the window and delivers the notices in gate order.
 *
 * Each call is judged by its agent's policy (policy.ts), fixed when the call is
 * first seen: the load-time config, until settings change while the plugin runs.
 * The load-time policy's tracks are created with the breaker; any other track
 * when the first policy that turns it on is met.
 */
import type { BreakerConfig } from '../config/config.js';
import type { Agent, Notice, PreStepPayload } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { own } from '../host/own.js';
import { createPolicyBook, type Policy, type PolicyBook } from '../policy/policy.js';
import { isAgent } from '../call/read.js';
import { classifyFailure, type Failure } from '../result/failure.js';
import { isShell } from '../call/read.js';
import type { Locale } from '../text/locale.js';
import { askMessage } from '../text/ask.js';
import { ceilingMessage, denyMessage, quoteResult, type AskOutcome, type HitFacts, type HitWords, type Knock, type QuotedHit } from '../text/message.js';
import type { GateOutcome } from '../text/log-line.js';
import type { Mark } from '../call/mark.js';
import { CALL_TRACKS } from '../tracks/index.js';
import { outcomeDigest } from '../result/digest.js';
import { installedNothing } from '../result/installed.js';
import type { Hit, Judgement, Settled, Track, TrackHooks } from '../tracks/track.js';
import { createTurns, type Turns } from '../memory/turn.js';
import { createAnswerBook, type AnswerBook } from './answers.js';
import { createCeilingBook, type CeilingBook } from './ceiling.js';
import { createKnockBook, type KnockBook } from './knocks.js';
import { blockingHits, committedKeys, judgeAll, keysAtCeiling, keysOf, quoteOf } from './gate.js';
import { createCallRecords, type CallRecord, type PolicyTracks } from './record.js';
import { keepShape } from '../host/shape.js';

export interface Breaker {
  /** `tools/pre-execute`: an ask decision at the gate, or `undefined` to pass on. */
  ask(exec: unknown): { kind: 'ask'; reason: string } | undefined;
  /** `ctx.tools.guard`: a denial, or `undefined` to allow. Counts the call. */
  guard(exec: unknown): string | undefined;
  /** `tools/post-execute`: settles the outcome and returns the notices owed, in gate order. */
  settle(exec: unknown, result: unknown): readonly Notice[];
  /** After `settle`: the denial a call whose ask was not approved carries on its own result (P13), once; `undefined` for any other call. */
  explain(exec: unknown): string | undefined;
  /** `agent/pre-step`: a human message among the claimed ones resets that agent (and gives it the latest settings). */
  reset(payload: PreStepPayload): void;
  /** `agent/pre-step`, after `reset`: the stop owed the agent, when this step may be rejected for it; `undefined` to go on. */
  stop(payload: PreStepPayload): Stop | undefined;
  /** A saved settings change: tightening reaches agents at once, the rest at their next human message. */
  configure(cfg: BreakerConfig): void;
  /** The configuration the agent's next call is judged by. */
  configOf(agent: Agent): BreakerConfig;
}

interface State {
  readonly turns: Turns;
  readonly policies: PolicyBook;
  /** The call record of a host's call, read on first sight (record.ts). */
  readonly recordOf: (exec: unknown) => CallRecord | null;
  /** Per agent, the call whose ask is outstanding: its answer is known once the agent's next call reaches policy (P8). */
  readonly asking: WeakMap<Agent, CallRecord>;
  /** The tracks created so far, by index in CALL_TRACKS (a sparse array: tracks no policy has turned on are holes). */
  readonly created: Track[];
  /** What each approval has allowed so far; judged against the agent's `exemptionCeiling`, when it has one. */
  readonly ceilings: CeilingBook;
  /** The operator's language for an ask: a cached read, never a wait (plugin/settings.ts). */
  readonly locale: () => Locale;
  /** The hooks, made `harmless`: none can change a decision. */
  readonly gate: (event: GateEvent) => void;
  readonly passed: (agent: Agent, marks: readonly Mark[]) => void;
  readonly outcomeOf: (agent: Agent, callId: string | undefined) => AskOutcome | undefined;
  /** The host's id of each call put to the operator, to learn how its ask ended. */
  readonly askIds: WeakMap<CallRecord, string>;
  /** How each refused measure's ask ended, for the denials after it. */
  readonly answers: AnswerBook;
  /** Each agent's loops this turn and their refused calls: which refusal explains in full, and when the turn ends. */
  readonly knocks: KnockBook;
  /** Per agent, the stop owed: a loop reached `stopAfter` refused calls, and its next step that claims no message is rejected. */
  readonly stops: WeakMap<Agent, Stop>;
  /** Counts the writes to what the tracks judge by (turns, the tracks' books): a judgement made since the last one still holds. */
  epoch: number;
}

/**
 * Every track's judgement of the call. A track's `judge` only reads, so the
 * guard takes the ask's judgement when nothing was written in between (the
 * quiet path: a call that hits nothing is judged once); an ask put to the
 * operator is judged again, after its approval exempts its keys.
 */
function judgedOf(state: State, call: CallRecord): readonly Judgement[] {
  const made = call.judged;
  return made !== null && call.judgedAt === state.epoch ? made : judgeAll(call);
}

/** Something the tracks judge by is about to be written. */
function written(state: State): void {
  state.epoch += 1;
}

/**
 * The stop a loop earned: it was refused `knocks` times this turn, `stopAfter`
 * or more, so the agent's turn ends at its next model step (docs/operator.md).
 * The call that reached it names the loop: its tool, its hits and its marks
 * (the terminal counts the loop's cost from them).
 */
export interface Stop {
  readonly agent: Agent;
  readonly name: string;
  readonly hits: readonly ReportedHit[];
  readonly marks: readonly Mark[];
  /** The loop's refused calls this turn, the last one included. */
  readonly knocks: number;
  readonly stopAfter: number;
}

/** A hit as the gate reports it: quoted, counted, and the key it is gated under. */
export type ReportedHit = QuotedHit & Pick<HitFacts, 'count' | 'cap'> & { readonly key: string };

/** What the gate did with a call, for the operator's log and terminal (plugin/log.ts, plugin/terminal.ts). */
export interface GateEvent {
  readonly agent: Agent;
  /** `asked`, `denied`, `ceiling` (an approval's exemption ceiling reached), `approved` (an ask allowed) or `refused` (an ask not allowed). */
  readonly outcome: GateOutcome | 'approved' | 'refused';
  readonly name: string;
  readonly hits: readonly ReportedHit[];
  /** The call's own marks: a hit may be gated under a key of a track's own (a cycle's). */
  readonly marks: readonly Mark[];
  /** `refused` only: how the ask ended, where the host said. */
  readonly answer?: AskOutcome | undefined;
}

/** Who the breaker tells what it did. None of them can change a decision, and a throw is dropped. */
export interface BreakerHooks {
  /** Every gate, after the breaker decided. */
  readonly gate?: (event: GateEvent) => void;
  /** A call the gate let through to its body, with its marks (the terminal counts a loop's calls from them). */
  readonly passed?: (agent: Agent, marks: readonly Mark[]) => void;
  /** How the ask about the call `callId` ended, where the host said (plugin/approvals.ts); `undefined` where it did not. */
  readonly outcomeOf?: (agent: Agent, callId: string | undefined) => AskOutcome | undefined;
}

/**
 * A refused call knocks on its loop (knocks.ts): which refusal of the loop it
 * is this turn, and, once the loop has been refused `stopAfter` times, the
 * stop owed the agent.
 */
function knock(state: State, call: CallRecord, hits: readonly (ReportedHit & { readonly words?: Pick<HitWords, 'track'> })[]): Knock {
  const { nth, seen } = state.knocks.knock(call.agent, hits.map((hit) => ({ key: hit.key, said: `${hit.words?.track ?? 'ceiling'} ${hit.key}` })));
  const { stopAfter } = call.policy.cfg;
  if (stopAfter !== null && nth >= stopAfter) state.stops.set(call.agent, { agent: call.agent, name: call.name, hits, marks: call.marks, knocks: nth, stopAfter });
  return { nth, seen, stopAfter };
}

/** Every track of the call hears it was attempted (allowed, denied or refused): the attempt counts whatever the verdict. */
function attemptedAll(call: CallRecord): void {
  for (let at = 0; at < call.tracks.length; at += 1) {
    const track = call.tracks[at] as Track;
    track.hooks.attempted?.(track.books, call);
  }
}

/** Declined, unattended or cancelled: the measures are refused and committed to the window though the call never ran. */
function refuse(state: State, call: CallRecord): void {
  written(state);
  // Called only for a call whose ask is outstanding.
  const asked = call.asked as readonly Hit[];
  call.asked = null;
  // An outstanding ask is always the agent's latest: ask() sets both, and every answer clears both.
  state.asking.delete(call.agent);
  call.denied = true;
  const keys = asked.map((hit) => hit.key);
  state.turns.refuse(call.agent, keys);
  state.turns.commit(call.agent, committedKeys(call, asked), call.policy.cfg.window);
  attemptedAll(call);
  // Rejected, unattended or withdrawn: the host has recorded which by now (approval/decided comes before the call settles).
  const outcome = state.outcomeOf(call.agent, state.askIds.get(call));
  if (outcome !== undefined) state.answers.note(call.agent, keys, outcome);
  state.gate({ agent: call.agent, outcome: 'refused', name: call.name, hits: asked, marks: call.marks, answer: outcome });
  // The model reads the host's "rejected" line on this call: the why comes with it, not with the next call (P13).
  const nth = knock(state, call, asked);
  call.refusal = own(denyMessage({ name: call.name, hits: asked, lastResult: state.turns.lastResult(call.agent), refused: true, asked: true, outcome, knock: nth }));
}

function explain(state: State, exec: unknown): string | undefined {
  const call = state.recordOf(exec);
  if (call === null || call.refusal === null) return undefined;
  const text = call.refusal;
  call.refusal = null;
  return text;
}

/**
 * DSH runs an agent's policy one call at a time, so when its next call reaches
 * policy an earlier ask the guard never consumed was not approved. Within a
 * pool that call has not settled yet; refusing it now keeps the operator from
 * being asked again about the same measures in the same step (P8).
 */
function answerEarlierAsk(state: State, call: CallRecord): void {
  const earlier = state.asking.get(call.agent);
  if (earlier !== undefined && earlier !== call) refuse(state, earlier);
}

function ask(state: State, exec: unknown): { kind: 'ask'; reason: string } | undefined {
  const call = state.recordOf(exec);
  if (call === null) return undefined;
  answerEarlierAsk(state, call);
  const { cfg } = call.policy;
  if (cfg.onLimit !== 'ask') return undefined;
  const judged = judgeAll(call);
  // Not put to the operator: its guard judges by the same state unless something is written first.
  call.judged = judged;
  call.judgedAt = state.epoch;
  const ceiling = cfg.exemptionCeiling;
  // An exemption at its ceiling is denied by the guard without a second ask.
  if (ceiling !== null && keysAtCeiling(state.ceilings, ceiling, call.agent, keysOf(call, judged)).length > 0) return undefined;
  const hits = blockingHits(state.turns, call, judged);
  // A refused measure is denied by the guard without asking again this turn.
  if (hits.length === 0 || hits.some((hit) => state.turns.isRefused(call.agent, hit.key))) return undefined;
  call.judged = null;
  call.asked = hits;
  state.asking.set(call.agent, call);
  const callId = safeMember(exec, 'callId');
  if (typeof callId === 'string') state.askIds.set(call, callId);
  state.gate({ agent: call.agent, outcome: 'asked', name: call.name, hits, marks: call.marks });
  // The host keeps both texts; copies do not pin the huge fingerprints they quote (P6).
  return { kind: 'ask', reason: own(askMessage({ name: call.name, shell: call.command !== undefined }, hits, cfg.exemptionCeiling, state.locale())) };
}

/** A declined ask never reaches the guard: reaching it means the operator approved `approved`, the call's ask. */
function takeApproval(state: State, call: CallRecord, approved: readonly Hit[]): void {
  written(state);
  call.asked = null;
  state.asking.delete(call.agent);
  state.turns.exempt(call.agent, approved.map((hit) => hit.key));
  state.gate({ agent: call.agent, outcome: 'approved', name: call.name, hits: approved, marks: call.marks });
}

/** The guard's denial, if any. */
function deny(state: State, call: CallRecord, judged: readonly Judgement[]): string | undefined {
  const { agent, policy: { cfg } } = call;
  const ceiling = cfg.exemptionCeiling;
  if (ceiling !== null) {
    const spent = keysAtCeiling(state.ceilings, ceiling, agent, keysOf(call, judged));
    if (spent.length > 0) {
      call.denied = true;
      const quotes = spent.map((key) => quoteOf(call, judged, key));
      const hits = quotes.map((quote, at) => ({ key: spent[at] as string, quote, count: ceiling, cap: ceiling }));
      state.gate({ agent, outcome: 'ceiling', name: call.name, hits, marks: call.marks });
      return own(ceilingMessage(call.name, quotes, ceiling, state.turns.lastResult(agent), knock(state, call, hits)));
    }
  }
  const hits = blockingHits(state.turns, call, judged);
  if (hits.length === 0) return undefined;
  call.denied = true;
  state.turns.commit(agent, committedKeys(call, hits), cfg.window);
  const refused = hits.every((hit) => state.turns.isRefused(agent, hit.key));
  state.gate({ agent, outcome: 'denied', name: call.name, hits, marks: call.marks });
  const outcome = refused ? state.answers.of(agent, hits.map((hit) => hit.key)) : undefined;
  return own(denyMessage({ name: call.name, hits, lastResult: state.turns.lastResult(agent), refused, outcome, knock: knock(state, call, hits) }));
}

function guard(state: State, exec: unknown): string | undefined {
  const call = state.recordOf(exec);
  if (call === null) return undefined;
  const { agent, policy: { cfg } } = call;
  answerEarlierAsk(state, call);
  const approved = call.asked;
  if (approved !== null) takeApproval(state, call, approved);
  const judged = judgedOf(state, call);
  written(state);
  // The attempt counts whatever the verdict: a denied call is the model going round all the same.
  attemptedAll(call);
  const denial = deny(state, call, judged);
  if (denial !== undefined) return denial;
  for (let at = 0; at < call.tracks.length; at += 1) {
    const track = call.tracks[at] as Track;
    const notice = track.hooks.advise?.(track.books, call, judged[at] as Judgement) ?? null;
    if (notice !== null) (call.advised ??= [])[at] = notice;
  }
  // Without a ceiling no count is read, and a ceiling set later starts every exemption's count from zero (createBreaker).
  // Stryker disable next-line ConditionalExpression: counting without a ceiling changes nothing but the work done per call
  if (cfg.exemptionCeiling !== null) state.ceilings.use(agent, keysOf(call, judged));
  // The approved call itself is what the operator said yes to: its exemption counts the calls after it.
  if (approved !== null) state.ceilings.grant(agent, approved.map((hit) => hit.key));
  state.turns.commit(agent, call.marks, cfg.window);
  state.passed(agent, call.marks);
  return undefined;
}

/**
 * The result of a call that ran, classified once for every track (and the
 * change count), its digest made on first use: one object a call, its fields
 * all set when it is made.
 */
class SettledCall implements Settled {
  readonly failure: Failure | null;
  #outcome: string | null | undefined = undefined;

  constructor(
    call: Pick<CallRecord, 'name' | 'command'>,
    readonly result: unknown,
  ) {
    this.failure = classifyFailure(result, { shell: isShell(call.name), command: call.command });
  }

  outcome(): string | null {
    if (this.#outcome === undefined) this.#outcome = outcomeDigest(this.result);
    return this.#outcome;
  }
}

// One a call that ran (host/shape.ts).
keepShape(new SettledCall({ name: '', command: undefined }, null));

/** No notice owed: shared, so that a quiet call allocates no list (it is only read). */
const NO_NOTICES: readonly Notice[] = Object.freeze([]);

/** The notices owed for the call, in gate order: each track's from settling, then its advisory from the guard. */
function settle(state: State, exec: unknown, result: unknown): readonly Notice[] {
  const call = state.recordOf(exec);
  if (call === null) return NO_NOTICES;
  written(state);
  const ran = call.asked === null && !call.denied;
  if (call.asked !== null) refuse(state, call);
  let owed: Notice[] | null = null;
  const settled = ran ? new SettledCall(call, result) : null;
  if (settled !== null) {
    // A call's own change happened before its result: the calls after it compare with that result,
    // nothing changed in between (the same download again is the same answer from its first run on).
    // An install answered that it installed nothing changed nothing (result/installed.ts).
    const changed = call.writes && settled.failure === null && (call.command === undefined || !installedNothing(call.name, call.command, result));
    if (changed) state.turns.noteChange((call.marks[0] as { key: string }).key);
  }
  for (let at = 0; at < call.tracks.length; at += 1) {
    const track = call.tracks[at] as Track;
    const learned = settled === null ? null : (track.hooks.learn?.(track.books, call, settled) ?? null);
    if (learned !== null) (owed ??= []).push(learned);
    // A hole where an earlier track had no advisory.
    const advised = call.advised?.[at];
    if (advised !== undefined) (owed ??= []).push(advised);
  }
  call.advised = null;
  if (settled !== null) {
    const head = quoteResult(result, call.policy.cfg.resultPreviewChars);
    if (head !== '') state.turns.setLastResult(call.agent, head);
  }
  return owed ?? NO_NOTICES;
}

/**
 * The hooks with every throw dropped: the log must never change what the gate
 * does. `passed` runs on every call the guard allows, so it costs one try and
 * no allocation.
 */
function harmless(hooks: BreakerHooks): Pick<State, 'gate' | 'passed' | 'outcomeOf'> {
  const { gate, passed, outcomeOf } = hooks;
  return {
    gate: (event) => void attempt(() => gate?.(event)),
    passed:
      passed === undefined
        ? () => undefined
        : (agent, marks) => {
            try {
              passed(agent, marks);
            } catch {
              // The terminal's count, never the call.
            }
          },
    outcomeOf: (agent, callId) => attempt(() => outcomeOf?.(agent, callId)),
  };
}

function attempt<T>(step: () => T): T | undefined {
  try {
    return step();
  } catch {
    // The log is the operator's convenience; the decision stands without it.
    return undefined;
  }
}

function hasHumanMessage(messages: unknown): boolean {
  // An unreadable message is not evidence of a human.
  return Array.isArray(messages) && messages.some((message) => safeMember(safeMember(message, 'source'), 'kind') === 'user');
}

function reset(state: State, payload: PreStepPayload): void {
  const { agent } = payload;
  if (!isAgent(agent) || !hasHumanMessage(payload.messages)) return;
  written(state);
  state.turns.reset(agent);
  // forEach skips the holes of tracks never created.
  state.created.forEach((track) => track.hooks.clear(track.books, agent));
  state.ceilings.reset(agent);
  state.answers.reset(agent);
  state.knocks.reset(agent);
  state.stops.delete(agent);
  state.policies.reset(agent);
}

/**
 * The stop owed the step's agent, taken: its turn ends here. Only a step that
 * claims no message is rejected, since rc.8 neither logs nor queues again what
 * a rejected step claimed (docs/operator.md): a step that brings a human
 * message has reset the agent already, and one that brings any other message
 * (a notice, steering) goes on, the stop waiting for the next step.
 */
function stop(state: State, payload: PreStepPayload): Stop | undefined {
  const { agent, messages } = payload;
  if (!isAgent(agent) || !Array.isArray(messages) || messages.length > 0) return undefined;
  const owed = state.stops.get(agent);
  if (owed !== undefined) state.stops.delete(agent);
  return owed;
}

/**
 * A track's hooks as the breaker holds them: each a field, in one order, the
 * hooks it has not `undefined`. The breaker reads a hook of every track at one
 * place (`judge`, `attempted`, `advise`, `learn`; the record `read`): hooks of
 * one shape keep each such read to one shape, where a shape each (one for each
 * set of hooks) makes it a lookup among many, every call and every track. No
 * hook reads `this`.
 */
function inOneShape(hooks: TrackHooks<unknown>): TrackHooks<unknown> {
  return { read: hooks.read, judge: hooks.judge, attempted: hooks.attempted, advise: hooks.advise, learn: hooks.learn, clear: hooks.clear };
}

/** Every call track's hooks in one shape, by index in CALL_TRACKS: made once, with the registry, and shared by every breaker. */
const HOOKS: readonly TrackHooks<unknown>[] = CALL_TRACKS.map((module) => inOneShape(module.hooks));

/** The tracks a policy turns on, in gate order, each created the first time a policy needs it, and what they need read from a call. */
function tracksFor(turns: Turns, created: Track[]): (policy: Policy) => PolicyTracks {
  const known = new WeakMap<Policy, PolicyTracks>();
  // Nearly every call is judged by the policy of the call before it: one comparison, not a WeakMap lookup.
  let last: { readonly policy: Policy; readonly found: PolicyTracks } | null = null;
  return (policy) => {
    if (last !== null && last.policy === policy) return last.found;
    let found = known.get(policy);
    // Stryker disable next-line ConditionalExpression: a cache; the tracks come from `created` either way, only the list is built again
    if (found === undefined) {
      const { cfg } = policy;
      const on = CALL_TRACKS.flatMap((module, at) => (module.meta.isOn(cfg) ? [{ module, at }] : []));
      const needs = { changes: false, files: false, line: false };
      for (const { module } of on) {
        const wants = module.meta.needs(cfg);
        needs.changes ||= wants.changes === true;
        needs.files ||= wants.files === true;
        needs.line ||= wants.line === true;
      }
      found = { tracks: on.map(({ module, at }) => (created[at] ??= { hooks: HOOKS[at] as TrackHooks<unknown>, books: module.create(turns, cfg) })), needs };
      known.set(policy, found);
    }
    last = { policy, found };
    return found;
  };
}

/** `locale`: the language the operator reads an ask in; English when not given. `hooks`: told what the gate did (the operator's log and terminal). */
export function createBreaker(initial: BreakerConfig, locale: () => Locale = () => 'en', hooks: BreakerHooks = {}): Breaker {
  const turns = createTurns(initial.window);
  const ceilings = createCeilingBook();
  const policies = createPolicyBook(initial, (agent, before) => {
    // A ceiling set mid-turn covers exemptions approved before it: their count starts now
    // (while the ceiling stays off, counting again from zero changes nothing).
    if (before.cfg.exemptionCeiling === null) ceilings.grant(agent, turns.exempted(agent));
  });
  const created: Track[] = [];
  const tracksOf = tracksFor(turns, created);
  // The load-time policy's tracks are made with the breaker, as the plugin loads, not inside the first call
  // (a track's books start empty whenever it is made, and none reads the configuration it is made under
  // but for a default its calls override: repeat's and sequence's windows).
  tracksOf(policies.loaded);
  const { gate, passed, outcomeOf } = harmless(hooks);
  // Every field written out, none spread in: a literal's shape outlives the breakers made with it,
  // a shape a spread adds to dies with the last of them and takes the code that reads it along (host/shape.ts).
  const state: State = {
    turns,
    policies,
    asking: new WeakMap(),
    created,
    ceilings,
    recordOf: createCallRecords(policies, tracksOf),
    locale,
    gate,
    passed,
    outcomeOf,
    askIds: new WeakMap(),
    answers: createAnswerBook(),
    knocks: createKnockBook(),
    stops: new WeakMap(),
    epoch: 0,
  };
  return {
    ask: (exec) => ask(state, exec),
    guard: (exec) => guard(state, exec),
    settle: (exec, result) => settle(state, exec, result),
    explain: (exec) => explain(state, exec),
    reset: (payload) => reset(state, payload),
    stop: (payload) => stop(state, payload),
    configure: (cfg) => {
      written(state);
      policies.update(cfg);
    },
    configOf: (agent) => policies.of(agent).cfg,
  };
}
