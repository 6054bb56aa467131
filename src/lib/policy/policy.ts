/**
 * The policy each agent's calls are judged by, when settings change while the
 * plugin runs. A saved change reaches every agent at once as far as it
 * tightens the breaker, and in full at the agent's next human message: a call
 * inside a turn can reach the settings endpoint, and a model must not be able
 * to loosen the breaker that is watching it (docs/live-settings.md).
 *
 * Until the first change, every agent follows the load-time policy, so a
 * plugin whose settings never change pays one comparison per call; after it,
 * one WeakMap lookup.
 */
import type { BreakerConfig } from '../config/config.js';
import type { Agent } from '../host/types.js';
import { compileScope } from './scope.js';
import { stricterConfig } from './strictness.js';

/** The include/exclude pair of one configuration. */
export interface Scope {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export interface Policy {
  readonly cfg: BreakerConfig;
  /** Whether a tool takes part: under any of `scopes`. */
  readonly tracked: (name: unknown) => boolean;
  /** The tool scopes this policy tracks the union of; one outside a turn that saw a change. */
  readonly scopes: readonly Scope[];
}

/**
 * Most scopes one policy tracks the union of. A turn that sees more scope
 * changes than this keeps the union it has (never narrower than it was), so a
 * model posting endless changes cannot grow the guard's work without bound.
 */
export const SCOPE_LIMIT = 8;

/** Deep equality of two JSON-shaped values (configurations), key order aside. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameData(left[key], right[key]));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, at) => entry === b[at]);
}

function compileScopes(scopes: readonly Scope[]): (name: unknown) => boolean {
  const tests = scopes.map(compileScope);
  return (name) => tests.some((tracked) => tracked(name));
}

export function compilePolicy(cfg: BreakerConfig, scopes: readonly Scope[] = [{ include: cfg.include, exclude: cfg.exclude }]): Policy {
  return { cfg, tracked: compileScopes(scopes), scopes };
}

/**
 * The policy an agent moves to mid-turn: each setting the stricter of the two,
 * and the tools tracked under either (a tool newly tracked is tracked at once,
 * a tool newly excluded only from the next human message).
 */
export function tightenPolicy(current: Policy, next: Policy): Policy {
  const cfg = stricterConfig(current.cfg, next.cfg);
  const added = next.scopes.filter((scope) => !current.scopes.some((held) => sameList(held.include, scope.include) && sameList(held.exclude, scope.exclude)));
  // Stryker disable next-line ConditionalExpression: a shortcut; with nothing added, the same scopes would be compiled again
  if (added.length === 0 || current.scopes.length + added.length > SCOPE_LIMIT) return { ...current, cfg };
  return compilePolicy(cfg, [...current.scopes, ...added]);
}

export interface PolicyBook {
  /** The load-time policy, which every agent follows until the first settings change. */
  readonly loaded: Policy;
  /** The policy the agent's next call is judged by. */
  of(agent: Agent): Policy;
  /** A human message: from now on the agent follows the latest settings in full. */
  reset(agent: Agent): void;
  /** A saved settings change. */
  update(cfg: BreakerConfig): void;
}

/**
 * `moved` hears each agent that moves to a tightened policy mid-turn, before
 * its call is judged (the breaker gives exemptions approved before a new
 * exemption ceiling their count there).
 */
export function createPolicyBook(initial: BreakerConfig, moved: (agent: Agent, before: Policy, after: Policy) => void): PolicyBook {
  const first = compilePolicy(initial);
  let latest = first;
  /** Per agent: the policy it holds, and the latest policy it has been reconciled with. */
  const held = new WeakMap<Agent, { readonly policy: Policy; readonly basis: Policy }>();
  return {
    loaded: first,
    of(agent) {
      // Stryker disable next-line ConditionalExpression: a fast path; with no change saved, no record is ever reconciled and `first` comes back below too
      if (latest === first) return first;
      // No record: the agent has had no human message since load, so it holds the load-time policy.
      const record = held.get(agent);
      const policy = record?.policy ?? first;
      if ((record?.basis ?? first) === latest) return policy;
      const tightened = tightenPolicy(policy, latest);
      held.set(agent, { policy: tightened, basis: latest });
      moved(agent, policy, tightened);
      return tightened;
    },
    reset(agent) {
      held.set(agent, { policy: latest, basis: latest });
    },
    update(cfg) {
      // The settings service hands over its value at registration: the row config again, usually.
      if (!sameData(cfg, latest.cfg)) latest = compilePolicy(cfg);
    },
  };
}
