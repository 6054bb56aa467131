/**
 * The breaker: the four hook algorithms over one tracker. The guard is the only
 * counter; pre-execute only asks, post-execute only settles outcomes, and a
 * human message resets. The tracks (occurrence, failure, and the opt-in
 * sequence track) merge into one list of hits before exemptions and refusals
 * apply, so there is one gate and one way to get stuck. Each opt-in feature has
 * its own book, created when a policy first needs it, so that off costs nothing.
 *
 * Each call is judged by its agent's policy (policy.ts), fixed when the call is
 * first seen: the load-time config, until settings change while the plugin runs.
 */
import type { BreakerConfig } from './config.js';
import type { Agent, Notice, PreStepPayload } from './host.js';
import type { Hit } from './message.js';
import type { Mark } from './mark.js';
import { readCall } from './call.js';
import { createAllowanceBook, type AllowanceBook } from './ceiling.js';
import { firstVerb } from './command.js';
import { classifyFailure } from './failure.js';
import { fingerprints, isShell } from './fingerprint.js';
import { isEnabled, markAll } from './mark.js';
import { safeMember } from './member.js';
import {
  askMessage,
  cycleMessage,
  denyMessage,
  failWarnMessage,
  preview,
  quoteResult,
  spentMessage,
  summarizeMessage,
  warnMessage,
} from './message.js';
import { createNotice, cycleSummary, failureSummary, occurrenceSummary } from './notice.js';
import { own } from './own.js';
import { createPolicyBook, type Policy } from './policy.js';
import { createProgressBook, isActionKey, resultDigest, type ProgressBook } from './progress.js';
import { createSequenceBook, cycleKey, findCycle, type Cycle, type SequenceBook, type Step } from './sequence.js';
import { failureWarning, occurrenceStage, type Warning } from './stage.js';
import { createTracker } from './tracker.js';

interface GateHit extends Hit {
  readonly key: string;
}

/** A tracked call, read and fingerprinted once, whichever hook sees it first. */
interface Measured {
  readonly agent: Agent;
  /** The agent's policy when the call was first seen; every hook judges the call by it. */
  readonly policy: Policy;
  readonly name: string;
  readonly command: string | undefined;
  readonly marks: readonly Mark[];
  /** The call as the sequence track records it; `null` when the track is off. */
  readonly step: Step | null;
}

/** A cycle the current call continues, at or past the advisory, with what messages and the gate need. */
interface Continued {
  readonly cycle: Cycle;
  readonly key: string;
  /** The cycle's calls in the order the run began with them, joined by arrows: what the advisory names. */
  readonly quote: string;
  /** The same cycle from the current call on: what a denial names, the stopped call first. */
  readonly next: string;
  readonly briefs: readonly string[];
}

interface PendingAsk {
  readonly hits: readonly GateHit[];
}

export interface Breaker {
  /** `tools/pre-execute`: an ask decision at the gate, or `undefined` to pass on. */
  ask(exec: unknown): { kind: 'ask'; reason: string } | undefined;
  /** `ctx.tools.guard`: a denial, or `undefined` to allow. Counts the call. */
  guard(exec: unknown): string | undefined;
  /** `tools/post-execute`: settles the outcome and returns the notices owed, failure first. */
  settle(exec: unknown, result: unknown): Notice[];
  /** `agent/pre-step`: a human message among the claimed ones resets that agent (and gives it the latest settings). */
  reset(payload: PreStepPayload): void;
  /** A saved settings change: tightening reaches agents at once, the rest at their next human message. */
  configure(cfg: BreakerConfig): void;
  /** The configuration the agent's next call is judged by. */
  configOf(agent: Agent): BreakerConfig;
}

function commandOf(args: unknown): string | undefined {
  const command = safeMember(args, 'command');
  return typeof command === 'string' ? command : undefined;
}

/** Longest one call is quoted inside a cycle; a cycle of four stays readable on a line or two. */
const STEP_CHARS = 60;

/** How the sequence track names a call: a shell command by itself, any other call by its fingerprint. */
function stepOf(name: string, command: string | undefined, exact: string, key: string): Step {
  // The history keeps these for `window` calls: a model-chosen tool name is cut like a quote.
  const tool = name.slice(0, STEP_CHARS);
  if (command !== undefined) {
    // The verb is at the head; a huge command is not split twice for a summary label.
    return { key, quote: preview(command, STEP_CHARS), brief: firstVerb(command.slice(0, 512)).slice(0, STEP_CHARS) || tool };
  }
  return { key, quote: preview(exact.slice('exact:'.length), STEP_CHARS), brief: tool };
}

function hasHumanMessage(messages: unknown): boolean {
  // An unreadable message is not evidence of a human.
  return Array.isArray(messages) && messages.some((message) => safeMember(safeMember(message, 'source'), 'kind') === 'user');
}

export function createBreaker(initial: BreakerConfig): Breaker {
  const tracker = createTracker(initial.window);
  const measured = new WeakMap<object, Measured | null>();
  const pending = new WeakMap<object, PendingAsk>();
  const deniedByUs = new WeakSet<object>();
  const advisories = new WeakMap<object, Notice>();
  const cycleNotices = new WeakMap<object, Notice>();
  let sequences: SequenceBook | null = null;
  let progress: ProgressBook | null = null;
  let allowances: AllowanceBook | null = null;
  const sequenceBook = (): SequenceBook => (sequences ??= createSequenceBook(initial.window));
  const progressBook = (): ProgressBook => (progress ??= createProgressBook(initial.window));
  const allowanceBook = (ceiling: number): AllowanceBook => (allowances ??= createAllowanceBook(ceiling));
  const policies = createPolicyBook(initial, (agent, before, after) => {
    // A ceiling set mid-turn covers exemptions approved before it: their allowance starts now.
    const ceiling = after.cfg.exemptionCeiling;
    if (before.cfg.exemptionCeiling === null && ceiling !== null) allowanceBook(ceiling).grant(agent, tracker.exempted(agent));
  });

  /** The call's measures, or `null` when it is transparent (no agent, untracked, unreadable). */
  const measure = (exec: unknown): Measured | null => {
    if (typeof exec !== 'object' || exec === null) return null;
    const known = measured.get(exec);
    if (known !== undefined) return known;
    const call = readCall(exec);
    let result: Measured | null = null;
    const policy = call.agent === null ? null : policies.of(call.agent);
    if (call.agent !== null && policy !== null && policy.tracked(call.name)) {
      const { cfg } = policy;
      const { fps } = fingerprints(call, cfg);
      const command = isShell(call.name) ? commandOf(call.args) : undefined;
      const marks = markAll(fps, cfg);
      const exact = marks[0];
      const step = cfg.sequence === null || exact === undefined ? null : stepOf(call.name, command, fps[0] as string, exact.key);
      result = { agent: call.agent, policy, name: call.name, command, marks, step };
    }
    measured.set(exec, result);
    return result;
  };

  /** The cycle the call continues, once it has come round `sequence.count` times; else `null`. */
  const continued = (call: Measured): Continued | null => {
    const { sequence } = call.policy.cfg;
    if (sequences === null || sequence === null || call.step === null) return null;
    const keys = sequences.keys(call.agent);
    const cycle = findCycle(keys, call.step.key, sequence.length);
    if (cycle === null || cycle.run < sequence.count * cycle.period) return null;
    const steps: Step[] = [];
    for (let at = cycle.start; at < cycle.start + cycle.period; at += 1) {
      const step = sequences.step(call.agent, at);
      if (step !== undefined) steps.push(step);
    }
    // The current call, index `keys.length` of the run, holds this place in the period.
    const at = (keys.length - cycle.start) % cycle.period;
    return {
      cycle,
      key: cycleKey(steps.map((step) => step.key)),
      quote: steps.map((step) => step.quote).join(' \u2192 '),
      next: [...steps.slice(at), ...steps.slice(0, at)].map((step) => step.quote).join(' \u2192 '),
      briefs: steps.map((step) => step.brief),
    };
  };

  /** The cycle limit the call would go past, or `null`. */
  const limitPassed = (call: Measured, cont: Continued | null): number | null => {
    const limit = call.policy.cfg.sequence?.limit ?? null;
    return cont !== null && limit !== null && cont.cycle.run > limit * cont.cycle.period ? limit : null;
  };

  /** The exemptions this call would use: its exempt measures, and an exempt cycle it continues past the limit. */
  const exemptUses = (call: Measured, cont: Continued | null): string[] => {
    const keys = call.marks.filter((mark) => tracker.isExempt(call.agent, mark.key)).map((mark) => mark.key);
    if (cont !== null && limitPassed(call, cont) !== null && tracker.isExempt(call.agent, cont.key)) keys.push(cont.key);
    return keys;
  };

  /**
   * Failure hits first (the more actionable), then repeats, then a cycle; exempt
   * measures never block. With `progress: results`, a repeat hit on an action
   * measure whose recent results differ is held back: a poll making progress.
   */
  const blockingHits = (call: Measured, cont: Continued | null): GateHit[] => {
    const hits: GateHit[] = [];
    const { agent, marks, policy: { cfg } } = call;
    if (cfg.failLimit !== null) {
      for (const mark of marks) {
        if (!isEnabled(mark)) continue;
        const streak = tracker.streak(agent, mark.key);
        if (streak !== undefined && streak.count >= cfg.failLimit) {
          hits.push({ key: mark.key, quote: mark.quote, track: 'failure', count: streak.count, cap: cfg.failLimit, failure: streak.failure });
        }
      }
    }
    for (const mark of marks) {
      const count = tracker.count(agent, mark.key) + 1;
      if (count >= mark.cap && (progress === null || cfg.progress !== 'results' || !progress.varied(agent, mark.key))) {
        hits.push({ key: mark.key, quote: mark.quote, track: 'repeat', count, cap: mark.cap, failure: null });
      }
    }
    const limit = limitPassed(call, cont);
    if (cont !== null && limit !== null) {
      const done = Math.floor((cont.cycle.run - 1) / cont.cycle.period);
      hits.push({ key: cont.key, quote: cont.next, track: 'sequence', count: done, cap: limit, failure: null });
    }
    return hits.filter((hit) => !tracker.isExempt(agent, hit.key));
  };

  return {
    ask(exec) {
      const call = measure(exec);
      if (call === null) return undefined;
      const { cfg } = call.policy;
      if (cfg.onLimit !== 'ask') return undefined;
      const cont = continued(call);
      // A spent allowance is denied by the guard without a second ask.
      const ceiling = cfg.exemptionCeiling;
      if (allowances !== null && ceiling !== null && exemptUses(call, cont).some((key) => allowances?.isSpent(call.agent, key, ceiling))) return undefined;
      const hits = blockingHits(call, cont);
      // A refused measure is denied by the guard without asking again this turn.
      if (hits.length === 0 || hits.some((hit) => tracker.isRefused(call.agent, hit.key))) return undefined;
      pending.set(exec as object, { hits });
      // The host keeps both texts; copies do not pin the huge fingerprints they quote (P6).
      return { kind: 'ask', reason: own(askMessage(call.name, hits, cfg.exemptionCeiling)) };
    },

    guard(exec) {
      const call = measure(exec);
      if (call === null) return undefined;
      const { agent, marks, policy: { cfg } } = call;
      const ceiling = cfg.exemptionCeiling;
      const approved = pending.get(exec as object);
      let granted: readonly string[] = [];
      if (approved !== undefined) {
        // A declined ask never reaches the guard: reaching it means the operator approved.
        pending.delete(exec as object);
        granted = approved.hits.map((hit) => hit.key);
        tracker.exempt(agent, granted);
        if (ceiling !== null) allowanceBook(ceiling).grant(agent, granted);
      }
      const cont = continued(call);
      // The attempt joins the history whatever the verdict: a denied call is the model going round all the same.
      if (call.step !== null) sequenceBook().record(agent, call.step, cfg.window);
      // The approved call itself is what the operator said yes to; the allowance counts the calls after it.
      const uses = allowances === null || ceiling === null ? [] : exemptUses(call, cont).filter((key) => !granted.includes(key));
      if (allowances !== null && ceiling !== null) {
        const spent = uses.filter((key) => allowances?.isSpent(agent, key, ceiling));
        if (spent.length > 0) {
          deniedByUs.add(exec as object);
          const quotes = spent.map((key) => (key === cont?.key ? cont.next : (marks.find((mark) => mark.key === key)?.quote ?? key)));
          return own(spentMessage(call.name, quotes, ceiling, tracker.lastResult(agent)));
        }
      }
      const hits = blockingHits(call, cont);
      if (hits.length > 0) {
        deniedByUs.add(exec as object);
        // Only what hit is spent: the call never touched its other resources. A cycle has no slot in the window.
        tracker.commit(agent, hits.filter((hit) => hit.track !== 'sequence').map((hit) => hit.key), cfg.window);
        return own(denyMessage({
          name: call.name,
          hits,
          lastResult: tracker.lastResult(agent),
          refused: hits.every((hit) => tracker.isRefused(agent, hit.key)),
        }));
      }
      const stage = occurrenceStage(marks, (key) => tracker.count(agent, key), (key) => tracker.isExempt(agent, key), cfg);
      if (stage !== null) {
        const text = stage.level === 2 ? summarizeMessage(stage.mark.quote, stage.count) : warnMessage(stage.mark.quote, stage.count);
        advisories.set(exec as object, createNotice(text, occurrenceSummary(stage.mark.label, stage.count)));
      }
      // One notice per crossing: the run passes `count` periods exactly once until the cycle breaks.
      const { sequence } = cfg;
      if (sequence !== null && cont !== null && cont.cycle.run === sequence.count * cont.cycle.period && !tracker.isExempt(agent, cont.key)) {
        const text = cycleMessage(cont.quote, cont.cycle.period, sequence.count, sequence.limit);
        cycleNotices.set(exec as object, createNotice(text, cycleSummary(cont.briefs, sequence.count)));
      }
      allowances?.spend(agent, uses);
      tracker.commit(agent, marks.map((mark) => mark.key), cfg.window);
      return undefined;
    },

    settle(exec, result) {
      const owed: Notice[] = [];
      const call = measure(exec);
      if (call !== null) {
        const { agent, marks, policy: { cfg } } = call;
        const asked = pending.get(exec as object);
        if (asked !== undefined) {
          // Declined, unattended or cancelled: the budget is spent though the call never ran.
          pending.delete(exec as object);
          deniedByUs.add(exec as object);
          tracker.refuse(agent, asked.hits.map((hit) => hit.key));
          tracker.commit(agent, asked.hits.filter((hit) => hit.track !== 'sequence').map((hit) => hit.key), cfg.window);
          if (call.step !== null) sequenceBook().record(agent, call.step, cfg.window);
        } else if (!deniedByUs.has(exec as object)) {
          const failure = classifyFailure(result, { shell: isShell(call.name), ...(call.command === undefined ? {} : { command: call.command }) });
          const counted = marks.filter((mark) => isEnabled(mark) && !tracker.isExempt(agent, mark.key));
          const streaks = tracker.settle(agent, counted.map((mark) => mark.key), failure);
          const warned: Warning[] = [];
          counted.forEach((mark, at) => {
            if (failure !== null && cfg.failWarnAt !== null && streaks[at] === cfg.failWarnAt) warned.push({ mark, streak: cfg.failWarnAt });
          });
          const top = failureWarning(warned);
          if (top !== null) owed.push(createNotice(failWarnMessage(top.mark.quote, top.streak, failure), failureSummary(top.mark.label, top.streak)));
          if (cfg.progress === 'results') {
            const actions = marks.filter((mark) => isEnabled(mark) && isActionKey(mark.key)).map((mark) => mark.key);
            progressBook().record(agent, actions, resultDigest(result, call.name, cfg.ignoreArgs), cfg.window);
          }
          const head = quoteResult(result, cfg.resultPreviewChars);
          if (head !== '') tracker.setLastResult(agent, head);
        }
      }
      if (typeof exec === 'object' && exec !== null) {
        const advisory = advisories.get(exec);
        if (advisory !== undefined) {
          advisories.delete(exec);
          owed.push(advisory);
        }
        const cycle = cycleNotices.get(exec);
        if (cycle !== undefined) {
          cycleNotices.delete(exec);
          owed.push(cycle);
        }
      }
      return owed;
    },

    reset(payload) {
      const agent = payload.agent;
      const keyable = (typeof agent === 'object' && agent !== null) || typeof agent === 'function';
      if (keyable && hasHumanMessage(payload.messages)) {
        tracker.reset(agent as Agent);
        sequences?.reset(agent as Agent);
        progress?.reset(agent as Agent);
        allowances?.reset(agent as Agent);
        policies.reset(agent as Agent);
      }
    },

    configure(cfg) {
      policies.update(cfg);
    },

    configOf: (agent) => policies.of(agent).cfg,
  };
}
