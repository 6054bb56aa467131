/**
 * Shrinks a mismatching session to a short one that still mismatches: first by
 * deleting steps (delta debugging, chunks then single steps), then by simplifying
 * what is left (config keys, pools, argument keys, answers, results, agents), repeating
 * until nothing more can be removed.
 */
import type { BodySpec, Session, Step } from './session.js';

export type StillFails = (session: Session) => Promise<boolean>;

const PLAIN_SUCCESS: BodySpec = {
  kind: 'return',
  result: { isError: false, value: {}, content: [{ type: 'text', text: 'ok' }] },
};

function withSteps(session: Session, steps: Step[]): Session {
  return { ...session, steps };
}

/** Delete chunks of steps, halving the chunk size down to one (ddmin-style). */
async function shrinkSteps(session: Session, fails: StillFails, budget: { left: number }): Promise<Session> {
  let current = session;
  let chunk = Math.max(1, Math.floor(current.steps.length / 2));
  while (chunk >= 1 && budget.left > 0) {
    let removed = false;
    for (let at = 0; at < current.steps.length && budget.left > 0; ) {
      const candidate = withSteps(current, [...current.steps.slice(0, at), ...current.steps.slice(at + chunk)]);
      budget.left -= 1;
      if (candidate.steps.length < current.steps.length && (await fails(candidate))) {
        current = candidate;
        removed = true;
      } else {
        at += chunk;
      }
    }
    if (!removed) chunk = Math.floor(chunk / 2);
  }
  return current;
}

/** Candidate simplifications of one session, each a single small change. */
function* simplifications(session: Session): Generator<Session> {
  const config = session.config;
  if (config !== null && typeof config === 'object' && !Array.isArray(config)) {
    const record = config as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const rest = { ...record };
      delete rest[key];
      yield { ...session, config: rest };
      const inner = record[key];
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
        for (const innerKey of Object.keys(inner)) {
          const smaller = { ...(inner as Record<string, unknown>) };
          delete smaller[innerKey];
          yield { ...session, config: { ...record, [key]: smaller } };
        }
      }
    }
    if (Object.keys(record).length === 0) yield { ...session, config: undefined };
  }
  // Use fewer agents: fold the highest agent into agent 0.
  if (session.agents > 1) {
    const top = session.agents - 1;
    const steps = session.steps.map((step): Step => {
      if (step.kind === 'call') return step.agent === top ? { ...step, agent: 0 } : step;
      return step.agent === top ? { ...step, agent: 0 } : step;
    });
    yield { ...session, agents: top, steps };
  }
  // Run one pool's calls one by one: shows whether the mismatch needs the pool order.
  const pools = new Set<number>();
  for (const step of session.steps) if (step.kind === 'call' && step.pool !== undefined) pools.add(step.pool);
  for (const pool of pools) {
    yield withSteps(session, session.steps.map((s) => {
      if (s.kind !== 'call' || s.pool !== pool) return s;
      const { pool: _dropped, ...alone } = s;
      return alone;
    }));
  }
  // The same edit on every call with identical arguments (repeats must stay repeats):
  // drop one argument key, or one word of the command.
  const seen = new Set<string>();
  for (const step of session.steps) {
    if (step.kind !== 'call') continue;
    const args = step.arguments;
    const key = JSON.stringify(args);
    if (seen.has(key) || args === null || typeof args !== 'object' || Array.isArray(args)) continue;
    seen.add(key);
    const everywhere = (next: unknown): Session =>
      withSteps(session, session.steps.map((s) => (s.kind === 'call' && JSON.stringify(s.arguments) === key ? { ...s, arguments: next } : s)));
    const record = args as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const rest = { ...record };
      delete rest[name];
      yield everywhere(rest);
    }
    if (typeof record.command === 'string') {
      const words = record.command.split(' ');
      for (let w = 0; words.length > 1 && w < words.length; w += 1) {
        yield everywhere({ ...record, command: [...words.slice(0, w), ...words.slice(w + 1)].join(' ') });
      }
    }
  }
  for (let i = 0; i < session.steps.length; i += 1) {
    const step = session.steps[i] as Step;
    const replace = (next: Step): Session => withSteps(session, session.steps.map((s, j) => (j === i ? next : s)));
    if (step.kind !== 'call') continue;
    if (step.answer !== 'none') yield replace({ ...step, answer: 'none' });
    if (JSON.stringify(step.body) !== JSON.stringify(PLAIN_SUCCESS)) yield replace({ ...step, body: PLAIN_SUCCESS });
    const args = step.arguments;
    if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
      for (const key of Object.keys(args)) {
        const rest = { ...(args as Record<string, unknown>) };
        delete rest[key];
        yield replace({ ...step, arguments: rest });
      }
    }
  }
}

function size(session: Session): number {
  return JSON.stringify(session, (_k, v: unknown) => (v === undefined ? null : v)).length;
}

export interface Shrunk {
  session: Session;
  attempts: number;
}

/** The smallest session found (within `maxAttempts` re-runs) that still fails. */
export async function shrink(session: Session, fails: StillFails, maxAttempts = 3000): Promise<Shrunk> {
  const budget = { left: maxAttempts };
  let current = await shrinkSteps(session, fails, budget);
  let progress = true;
  while (progress && budget.left > 0) {
    progress = false;
    for (const candidate of simplifications(current)) {
      if (budget.left <= 0) break;
      budget.left -= 1;
      if (size(candidate) < size(current) || candidate.agents < current.agents || candidate.config === undefined) {
        if (await fails(candidate)) {
          current = candidate;
          progress = true;
          break;
        }
      }
    }
    if (progress) current = await shrinkSteps(current, fails, budget);
  }
  return { session: current, attempts: maxAttempts - budget.left };
}
