/**
 * The precision of `act:` on the corpus (test/fixtures/act-corpus.ts): how many
 * groups of respellings fold, how many contrast pairs wrongly fold, and, per
 * rule, how many of each it is responsible for. A rule is responsible for a
 * fold when taking it out of the list undoes that fold.
 */
import { actOf, RULES, type Dialect, type Rule } from '../../src/lib/shell/act/index.js';
import { CONTRASTS, GROUPS, type ContrastPair, type RespellingGroup } from '../../test/fixtures/act-corpus.js';

const dialect = (shell: 'bash' | 'pwsh' | undefined): Dialect => (shell === 'pwsh' ? 'pwsh' : 'posix');

/** Whether every command gets one `act:` under `rules`. */
export function foldsTogether(commands: readonly string[], shell: 'bash' | 'pwsh' | undefined, rules: readonly Rule[] = RULES): boolean {
  return new Set(commands.map((command) => actOf(command, dialect(shell), rules))).size === 1;
}

export interface RuleFigures {
  readonly rule: Rule;
  /** Folded groups that no longer fold without this rule. */
  readonly groupsNeeded: number;
  /** Contrast pairs folded that would not fold without this rule. */
  readonly contrastsFolded: number;
}

export interface Precision {
  readonly groups: number;
  /** Commands across all groups. */
  readonly commands: number;
  readonly groupsFolded: number;
  readonly contrasts: number;
  readonly contrastsFolded: number;
  readonly unfolded: readonly RespellingGroup[];
  readonly wronglyFolded: readonly ContrastPair[];
  readonly perRule: readonly RuleFigures[];
  /** Folded groups that fold with any single rule left out: the reading alone (whitespace, operators) folds them. */
  readonly byReadingAlone: number;
}

export function measurePrecision(groups: readonly RespellingGroup[] = GROUPS, contrasts: readonly ContrastPair[] = CONTRASTS): Precision {
  const folded = groups.filter((group) => foldsTogether(group.commands, group.shell));
  const wrong = contrasts.filter((contrast) => foldsTogether(contrast.pair, contrast.shell));
  const without = (rule: Rule): Rule[] => RULES.filter((r) => r !== rule);
  const perRule = RULES.map((rule) => ({
    rule,
    groupsNeeded: folded.filter((group) => !foldsTogether(group.commands, group.shell, without(rule))).length,
    contrastsFolded: wrong.filter((contrast) => !foldsTogether(contrast.pair, contrast.shell, without(rule))).length,
  }));
  const byReadingAlone = folded.filter((group) => RULES.every((rule) => foldsTogether(group.commands, group.shell, without(rule)))).length;
  return {
    groups: groups.length,
    commands: groups.reduce((n, group) => n + group.commands.length, 0),
    groupsFolded: folded.length,
    contrasts: contrasts.length,
    contrastsFolded: wrong.length,
    unfolded: groups.filter((group) => !folded.includes(group)),
    wronglyFolded: wrong,
    perRule,
    byReadingAlone,
  };
}

const percent = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;

/** The Markdown block docs/act.md carries between its precision markers. */
export function precisionMarkdown(p: Precision = measurePrecision()): string {
  const lines = [
    `Corpus: ${p.groups} groups of respellings (${p.commands} commands, one action per group) and ${p.contrasts} contrast pairs (two actions per pair).`,
    '',
    '| | folded | of | share |',
    '|---|---:|---:|---:|',
    `| groups of respellings (one action each) | ${p.groupsFolded} | ${p.groups} | ${percent(p.groupsFolded, p.groups)} |`,
    `| contrast pairs (two actions each), wrongly folded | ${p.contrastsFolded} | ${p.contrasts} | ${percent(p.contrastsFolded, p.contrasts)} |`,
    '',
    'Per rule: the folded groups that no longer fold when the rule is taken out, and the contrast pairs it folds wrongly.',
    '',
    '| rule | why it cannot change the action | groups that need it | contrast pairs it folds |',
    '|---|---|---:|---:|',
    ...p.perRule.map(({ rule, groupsNeeded, contrastsFolded }) => `| \`${rule.name}\` | ${rule.reason} | ${groupsNeeded} | ${contrastsFolded} |`),
    `| (the reading alone: whitespace, operators) | | ${p.byReadingAlone} | |`,
    '',
    p.unfolded.length === 0 ? 'Every group folds.' : 'Groups that do not fold:',
    '',
    ...p.unfolded.map((group) => `- ${group.shape}: ${group.commands.map((c) => `\`${c.trim()}\``).join(', ')}`),
  ];
  if (p.wronglyFolded.length > 0) {
    lines.push('', 'Contrast pairs wrongly folded:', '', ...p.wronglyFolded.map((c) => `- ${c.why}: \`${c.pair[0]}\`, \`${c.pair[1]}\``));
  }
  return lines.join('\n');
}

export const PRECISION_START = '<!-- act-precision:start (npm run act-precision -- --write) -->';
export const PRECISION_END = '<!-- act-precision:end -->';

/** `doc` with the text between the precision markers replaced by `block`; throws when a marker is missing. */
export function withPrecisionBlock(doc: string, block: string): string {
  const start = doc.indexOf(PRECISION_START);
  const end = doc.indexOf(PRECISION_END);
  if (start < 0 || end < start) throw new Error(`the precision markers are missing: ${PRECISION_START} … ${PRECISION_END}`);
  return `${doc.slice(0, start + PRECISION_START.length)}\n${block}\n${doc.slice(end)}`;
}

/** The block currently between the markers of `doc`, or `null`. */
export function precisionBlockOf(doc: string): string | null {
  const start = doc.indexOf(PRECISION_START);
  const end = doc.indexOf(PRECISION_END);
  return start < 0 || end < start ? null : doc.slice(start + PRECISION_START.length, end).trim();
}
