/**
 * The `act:` measure: a shell command's action in a canonical form. The line
 * is read as the shell reads it (lex.ts), the rules below rewrite it, and the
 * result is written back as text. The rules run in this order; when a rule
 * that can give work to an earlier one (see `Rule.reopens`) rewrote the line,
 * the list runs again, at most three times in all.
 *
 * Compound commands are folded as a whole line, never per segment: a segment
 * of its own would make `cd /repo && git push` count with every other command
 * that starts with `cd /repo`.
 */
import type { Dialect, Lexed } from '../lex.js';
import { hasEntity } from './entities.js';
import { lineOf, readLine } from './line.js';
import { namesAny, outlineOf, type Outline } from './outline.js';
import type { Rule } from './rule.js';
import { assignments } from './rules/assignments.js';
import { catPipe } from './rules/cat-pipe.js';
import { cmdlets } from './rules/cmdlets.js';
import { context } from './rules/context.js';
import { directory } from './rules/directory.js';
import { inlineShell } from './rules/inline-shell.js';
import { interpreters } from './rules/interpreters.js';
import { lineCount } from './rules/line-count.js';
import { moduleRunners } from './rules/module-runners.js';
import { noOp } from './rules/no-op.js';
import { pager } from './rules/pager.js';
import { paths } from './rules/paths.js';
import { quoting } from './rules/quoting.js';
import { scripts } from './rules/scripts.js';
import { streams } from './rules/streams.js';
import { switches } from './rules/switches.js';
import { views } from './rules/views.js';
import { verbosity } from './rules/verbosity.js';
import { wrappers } from './rules/wrappers.js';
import { renderLine, type Line } from './syntax.js';

export type { Dialect } from '../lex.js';
export type { Rule } from './rule.js';

export const RULES: readonly Rule[] = [
  inlineShell,
  quoting,
  assignments,
  wrappers,
  noOp,
  pager,
  interpreters,
  moduleRunners,
  scripts,
  cmdlets,
  views,
  streams,
  directory,
  lineCount,
  catPipe,
  verbosity,
  context,
  switches,
  paths,
];

const PASSES = 3;

/**
 * Commands longer than this are not read: their `act:` is the command as
 * written. A respelled retry is a line or a few; past this, reading and
 * rewriting tens of thousands of words would cost the guard tens of
 * milliseconds for a command that can only fold with itself anyway.
 */
export const ACT_READ_LIMIT = 16_384;

/**
 * The canonical action of `command`, or the command trimmed when it is too
 * long or its syntax is not modelled (it then folds only with itself). `''`
 * for a blank command. Linear in the command; never throws. `lexed`: the
 * command already read in this dialect, when the caller has it.
 */
export function actOf(command: string, dialect: Dialect = 'posix', rules: readonly Rule[] = RULES, lexed?: Lexed): string {
  if (command.length > ACT_READ_LIMIT) return command.trim();
  // A line that spells an operator as an HTML entity is read again from its text, the entity read back.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut: the line read again from the text is the line made from the lexer's tokens
  let line = lexed === undefined || (dialect === 'posix' && hasEntity(command)) ? readLine(command, dialect) : lineOf(lexed, dialect);
  if (line === null) return command.trim();
  return renderLine(rewritten(line, rules, dialect));
}

/**
 * A rule as the engine reads it: every field present, in one order. The rules
 * themselves are literals of many shapes (most have no `dialect`, some no
 * `concerns`), and reading 19 shapes at one place of the loop costs a lookup
 * per field and rule on every line.
 */
interface Step {
  readonly dialect: Dialect | null;
  /** Whether the rule says what it reads (names, redirections, assignments): a line with none of it passes the rule by. */
  readonly gated: boolean;
  /** The rule's bit in `Plan.byName`, for a rule with `names`; 0 when it has none (or is past the 31st such rule: `names` is then asked). */
  readonly bit: number;
  readonly names: ReadonlySet<string | null> | null;
  readonly redirects: boolean;
  /** The fewest assignments a command must have to concern the rule; Infinity when it reads none. */
  readonly assigns: number;
  readonly concerns: ((outline: Outline) => boolean) | null;
  readonly apply: (line: Line) => Line;
  readonly reopens: boolean;
  readonly keepsOutline: boolean;
}

/** A rule list as the engine runs it: its steps, and for each command name the bits of the rules that read it. */
interface Plan {
  readonly steps: readonly Step[];
  readonly byName: ReadonlyMap<string, number>;
}

// The plan of each rule list, made on its first line (the engine is given RULES, or a test's list).
const PLANS = new WeakMap<readonly Rule[], Plan>();

function planOf(rules: readonly Rule[]): Plan {
  const known = PLANS.get(rules);
  // Stryker disable next-line ConditionalExpression: a cache: planning the list again gives the same plan
  if (known !== undefined) return known;
  const byName = new Map<string, number>();
  const steps = rules.map((rule, at): Step => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: a shortcut: a rule without a bit is asked by its names (namesAny), which answers as the bit does
    const bit = rule.names !== undefined && at < 31 ? 1 << at : 0;
    // Stryker disable next-line ArrayDeclaration,ConditionalExpression,LogicalOperator: a bit of 0, or a name no outline holds (null), marks no rule in the table
    for (const name of rule.names ?? []) if (bit !== 0 && name !== null) byName.set(name, (byName.get(name) ?? 0) | bit);
    const gated = rule.names !== undefined || rule.redirects === true || rule.assigns !== undefined;
    return {
      dialect: rule.dialect ?? null,
      gated,
      bit,
      names: rule.names ?? null,
      redirects: rule.redirects === true,
      assigns: rule.assigns ?? Infinity,
      concerns: rule.concerns ?? null,
      apply: rule.apply,
      reopens: rule.reopens === true,
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: a rule taken to change the outline has the new line's outline read, the same outline
      keepsOutline: rule.keepsOutline === true,
    };
  });
  const plan: Plan = { steps, byName };
  PLANS.set(rules, plan);
  return plan;
}

/** The bits of the rules whose names a command of the outline has. */
function namedBits(outline: Outline, byName: ReadonlyMap<string, number>): number {
  let bits = 0;
  for (const name of outline.names) bits |= byName.get(name) ?? 0;
  return bits;
}

/** Whether the outline holds what a gated step reads: one of its names, a redirection, or enough assignments. */
function reads(step: Step, outline: Outline, named: number): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut: the bit and the names answer alike
  const hasName = step.bit !== 0 ? (named & step.bit) !== 0 : step.names !== null && namesAny(outline, step.names);
  return hasName || (step.redirects && outline.redirects) || outline.assigns >= step.assigns;
}

/** The line after the rules' passes; a rule of another dialect, or one the line's outline does not concern, is passed by. */
function rewritten(read: Line, rules: readonly Rule[], dialect: Dialect): Line {
  const { steps, byName } = planOf(rules);
  let line = read;
  // The outline (and the rules its names concern) is read again only after a rule changed the line.
  let outlined: Line | null = null;
  let outline: Outline | null = null;
  let named = 0;
  for (let pass = 0; pass < PASSES; pass += 1) {
    let reopened = false;
    for (let at = 0; at < steps.length; at += 1) {
      const step = steps[at] as Step;
      if (step.dialect !== null && step.dialect !== dialect) continue;
      // Stryker disable next-line ConditionalExpression: reading the outline for a rule that reads every line changes no rule's work
      if (step.gated || step.concerns !== null) {
        // Stryker disable next-line ConditionalExpression: the outline read again for the same line is the same outline
        if (outlined !== line) {
          outline = outlineOf(line);
          named = namedBits(outline, byName);
          outlined = line;
        }
        if (step.gated && !reads(step, outline as Outline, named)) continue;
        if (step.concerns !== null && !step.concerns(outline as Outline)) continue;
      }
      const next = step.apply(line);
      if (step.reopens && next !== line) reopened = true;
      // A rule that keeps the outline leaves the one read for the line it was given good for the new one.
      // Stryker disable next-line ConditionalExpression: a shortcut: without it the new line's outline is read, the same outline (act-outline.test.ts)
      if (step.keepsOutline && outlined === line) outlined = next;
      line = next;
    }
    if (!reopened) break;
  }
  return line;
}
