/**
 * The breaker: the four hook algorithms over one tracker. The guard is the only
 * counter; pre-execute only asks, post-execute only settles outcomes, and a
 * human message resets. Two tracks (occurrence, failure) merge into one list of
 * hits before exemptions and refusals apply, so there is one gate and one way
 * to get stuck.
 */
import type { BreakerConfig } from './config.js';
import type { Agent, Notice, PreStepPayload } from './host.js';
import type { Hit } from './message.js';
import type { Mark } from './mark.js';
import { readCall } from './call.js';
import { classifyFailure } from './failure.js';
import { fingerprints, isShell } from './fingerprint.js';
import { isEnabled, markAll } from './mark.js';
import { safeMember } from './member.js';
import { askMessage, denyMessage, failWarnMessage, renderHead, summarizeMessage, warnMessage } from './message.js';
import { createNotice, failureSummary, occurrenceSummary } from './notice.js';
import { own } from './own.js';
import { compileScope } from './scope.js';
import { failureWarning, occurrenceStage, type Warning } from './stage.js';
import { createTracker } from './tracker.js';

interface GateHit extends Hit {
  readonly key: string;
}

/** A tracked call, read and fingerprinted once, whichever hook sees it first. */
interface Measured {
  readonly agent: Agent;
  readonly name: string;
  readonly command: string | undefined;
  readonly marks: readonly Mark[];
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
  /** `agent/pre-step`: a human message among the claimed ones resets that agent. */
  reset(payload: PreStepPayload): void;
}

function commandOf(args: unknown): string | undefined {
  const command = safeMember(args, 'command');
  return typeof command === 'string' ? command : undefined;
}

function hasHumanMessage(messages: unknown): boolean {
  // An unreadable message is not evidence of a human.
  return Array.isArray(messages) && messages.some((message) => safeMember(safeMember(message, 'source'), 'kind') === 'user');
}

export function createBreaker(cfg: BreakerConfig): Breaker {
  const tracked = compileScope(cfg);
  const tracker = createTracker(cfg.window);
  const measured = new WeakMap<object, Measured | null>();
  const pending = new WeakMap<object, PendingAsk>();
  const deniedByUs = new WeakSet<object>();
  const advisories = new WeakMap<object, Notice>();

  /** The call's measures, or `null` when it is transparent (no agent, untracked, unreadable). */
  const measure = (exec: unknown): Measured | null => {
    if (typeof exec !== 'object' || exec === null) return null;
    const known = measured.get(exec);
    if (known !== undefined) return known;
    const call = readCall(exec);
    let result: Measured | null = null;
    if (call.agent !== null && tracked(call.name)) {
      const { fps } = fingerprints(call, cfg);
      const command = isShell(call.name) ? commandOf(call.args) : undefined;
      result = { agent: call.agent, name: call.name, command, marks: markAll(fps, cfg) };
    }
    measured.set(exec, result);
    return result;
  };

  /** Failure hits first (the more actionable), then repeats; exempt measures never block. */
  const blockingHits = (call: Measured): GateHit[] => {
    const hits: GateHit[] = [];
    const { agent, marks } = call;
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
      if (count >= mark.cap) hits.push({ key: mark.key, quote: mark.quote, track: 'repeat', count, cap: mark.cap, failure: null });
    }
    return hits.filter((hit) => !tracker.isExempt(agent, hit.key));
  };

  return {
    ask(exec) {
      if (cfg.onLimit !== 'ask') return undefined;
      const call = measure(exec);
      if (call === null) return undefined;
      const hits = blockingHits(call);
      // A refused measure is denied by the guard without asking again this turn.
      if (hits.length === 0 || hits.some((hit) => tracker.isRefused(call.agent, hit.key))) return undefined;
      pending.set(exec as object, { hits });
      // The host keeps both texts; copies do not pin the huge fingerprints they quote (P6).
      return { kind: 'ask', reason: own(askMessage(call.name, hits)) };
    },

    guard(exec) {
      const call = measure(exec);
      if (call === null) return undefined;
      const { agent, marks } = call;
      const approved = pending.get(exec as object);
      if (approved !== undefined) {
        // A declined ask never reaches the guard: reaching it means the operator approved.
        pending.delete(exec as object);
        tracker.exempt(agent, approved.hits.map((hit) => hit.key));
      }
      const hits = blockingHits(call);
      if (hits.length > 0) {
        deniedByUs.add(exec as object);
        // Only what hit is spent: the call never touched its other resources.
        tracker.commit(agent, hits.map((hit) => hit.key));
        return own(denyMessage({
          name: call.name,
          hits,
          lastResult: tracker.lastResult(agent),
          resultPreviewChars: cfg.resultPreviewChars,
          refused: hits.every((hit) => tracker.isRefused(agent, hit.key)),
        }));
      }
      const stage = occurrenceStage(marks, (key) => tracker.count(agent, key), (key) => tracker.isExempt(agent, key), cfg);
      if (stage !== null) {
        const text = stage.level === 2 ? summarizeMessage(stage.mark.quote, stage.count) : warnMessage(stage.mark.quote, stage.count);
        advisories.set(exec as object, createNotice(text, occurrenceSummary(stage.mark.label, stage.count)));
      }
      tracker.commit(agent, marks.map((mark) => mark.key));
      return undefined;
    },

    settle(exec, result) {
      const owed: Notice[] = [];
      const call = measure(exec);
      if (call !== null) {
        const { agent, marks } = call;
        const asked = pending.get(exec as object);
        if (asked !== undefined) {
          // Declined, unattended or cancelled: the budget is spent though the call never ran.
          pending.delete(exec as object);
          deniedByUs.add(exec as object);
          const keys = asked.hits.map((hit) => hit.key);
          tracker.refuse(agent, keys);
          tracker.commit(agent, keys);
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
          const head = renderHead(result, cfg.resultPreviewChars);
          if (head !== '') tracker.setLastResult(agent, head);
        }
      }
      if (typeof exec === 'object' && exec !== null) {
        const advisory = advisories.get(exec);
        if (advisory !== undefined) {
          advisories.delete(exec);
          owed.push(advisory);
        }
      }
      return owed;
    },

    reset(payload) {
      const agent = payload.agent;
      const keyable = (typeof agent === 'object' && agent !== null) || typeof agent === 'function';
      if (keyable && hasHumanMessage(payload.messages)) tracker.reset(agent as Agent);
    },
  };
}
