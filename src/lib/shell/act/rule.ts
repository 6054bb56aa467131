/**
 * The one shape every `act:` rule has: a name, a one-line reason, a rewrite of
 * the line, and the examples that specify it. The engine knows nothing about
 * any single rule; the unit tests run every rule's examples.
 */
import type { Dialect } from '../lex.js';
import { namesAny, type Outline } from './outline.js';
import type { Line } from './syntax.js';

export interface Rule {
  /** A short name, used in docs/act.md and in test names. */
  readonly name: string;
  /** Why the rewrite cannot change what runs or what is read. */
  readonly reason: string;
  /** The rewrite. Pure, linear in the line, never throws. */
  readonly apply: (line: Line) => Line;
  /** Groups of spellings that must share one `act:` fingerprint (and need this rule to). */
  readonly folds: readonly (readonly string[])[];
  /** Pairs this rule must leave apart: different actions, or differences it does not vouch for. */
  readonly keeps: readonly (readonly [string, string])[];
  /**
   * Whether a rewrite can give work to a rule earlier in the list (a new line,
   * a command taken out of a pipeline): then the list runs again. The rule
   * returns the very line it was given when it rewrites nothing.
   */
  readonly reopens?: boolean;
  /**
   * What in a line the rule reads, as data: a command of one of these `names`
   * (the engine asks one table for every rule that names some, once per line,
   * instead of each rule in turn), a command that `redirects`, or a command
   * with at least `assigns` assignments. A line with none of what the rule
   * says is given back as it is, and the engine passes the rule by. When the
   * rule says none of the three: any line, as far as they go.
   */
  readonly names?: ReadonlySet<string | null>;
  readonly redirects?: boolean;
  readonly assigns?: number;
  /**
   * Whether the rule can rewrite a line of this outline. `false` promises that
   * `apply` would give the line back as it is (or a line written alike), so the
   * engine passes the rule by. Absent: the rule reads every line.
   */
  readonly concerns?: (outline: Outline) => boolean;
  /**
   * Whether every rewrite leaves the line's outline as it was (the same
   * command names, as many assignments, the same commands redirecting): the
   * engine then keeps the outline it read instead of reading the new line's.
   */
  readonly keepsOutline?: boolean;
  /**
   * The one dialect whose lines the rule reads (its examples are read in it
   * too); the engine passes the rule by on a line of any other. Absent: every
   * dialect. A PowerShell alias such as `cat` is another program in sh.
   */
  readonly dialect?: Dialect;
}

/** Whether a line of this outline concerns the rule, by what it reads (names, redirections, assignments) and its `concerns`: when not, the rule gives the line back written alike. */
export function concerned(rule: Rule, outline: Outline): boolean {
  const read = rule.names === undefined && rule.redirects !== true && rule.assigns === undefined;
  const reads =
    read ||
    (rule.names !== undefined && namesAny(outline, rule.names)) ||
    (rule.redirects === true && outline.redirects) ||
    (rule.assigns !== undefined && outline.assigns >= rule.assigns);
  return reads && (rule.concerns === undefined || rule.concerns(outline));
}
