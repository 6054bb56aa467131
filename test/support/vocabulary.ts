/**
 * The generators' vocabulary: every entry of the tables the port shares with
 * the reference, taken from both sides — the reference's as read from the
 * installed oracle package (reference-tables.ts) and ours as exported by
 * src/lib. An entry dropped on either side is still generated, so it shows up
 * as a mismatch; an entry added on either side is generated the day it is added.
 */
import { DEFAULTS } from '../../src/lib/config/config.js';
import { GENERIC_SINKS, SHELL_OPERATORS, VOLATILE_LETTERS, VOLATILE_SWITCHES, VOLATILE_VALUE_FLAGS, WRAPPER_VALUE_OPTIONS, WRAPPERS } from '../../src/lib/shell/command.js';
import { TEXT_MARKS } from '../../src/lib/result/failure.js';
import { HTTP_VERBS, URL_TOOL } from '../../src/lib/call/fingerprint.js';
import { SHELLS } from '../../src/lib/call/read.js';
import { LINK_LOCAL, LOCAL_PREFIXES, TRACKING_KEY, UNIQUE_LOCAL } from '../../src/lib/call/url.js';
import { exampleOf, nearMiss } from './regex-examples.js';
import { referenceTables } from './reference-tables.js';

const ref = await referenceTables();

/** Both sides' entries, deduplicated and sorted, so the draw order does not depend on either table's order. */
function union(...lists: readonly (Iterable<string> | undefined)[]): readonly string[] {
  const all = new Set<string>();
  for (const list of lists) for (const item of list ?? []) all.add(item);
  return [...all].sort();
}

/** Patterns from both sides, deduplicated by their text. */
function patterns(...lists: readonly (readonly RegExp[])[]): readonly RegExp[] {
  const seen = new Map<string, RegExp>();
  for (const list of lists) for (const p of list) seen.set(String(p), p);
  return [...seen.keys()].sort().map((key) => seen.get(key) as RegExp);
}

/** Measures beyond 0.5.2, off by default (docs/act.md): the oracle has no counterpart, so parity never turns them on. */
export const OPT_IN_MEASURES: readonly string[] = ['act'];

const decoyTools = union(Object.keys(ref.defaults.ignoreArgs), Object.keys(DEFAULTS.ignoreArgs));
const aliasEntries = [...Object.entries(ref.defaults.hostAliases), ...Object.entries(DEFAULTS.hostAliases)];

export const VOCABULARY = {
  /** `--max-time`, `-m`, …: each eats the next word, or is glued to its value. */
  volatileValueFlags: union(ref.volatileValueFlags, VOLATILE_VALUE_FLAGS),
  /** `--silent`, …: dropped wherever they are. */
  volatileSwitches: union(ref.volatileLongFlags, VOLATILE_SWITCHES),
  /** Letters of a `-sSL` cluster. */
  volatileLetters: union(ref.volatileShortFlags, VOLATILE_LETTERS),
  wrappers: union(ref.wrappers, WRAPPERS),
  wrapperValueOptions: union(ref.wrapperValueOptions, WRAPPER_VALUE_OPTIONS),
  shellOperators: union(ref.shellOperators, SHELL_OPERATORS),
  genericSinks: union(ref.genericSinks, GENERIC_SINKS),
  shellTools: union(ref.shellTools, SHELLS),
  httpVerbs: union(ref.httpVerbs, HTTP_VERBS),
  urlToolPatterns: patterns([ref.urlTool], [URL_TOOL]),
  trackingKeys: patterns([ref.trackingKey], [TRACKING_KEY]),
  localPatterns: patterns(ref.localPatterns, LOCAL_PREFIXES, [UNIQUE_LOCAL, LINK_LOCAL]),
  localNames: union(ref.localNames),
  /** The classifier's text evidence, patterns and fixed markers. */
  failureMarks: [
    ...patterns(ref.failurePatterns, TEXT_MARKS.filter((m): m is RegExp => m instanceof RegExp)),
    ...union(TEXT_MARKS.filter((m): m is string => typeof m === 'string')),
  ] as readonly (RegExp | string)[],
  /** Decoy keys per tool (`*` for every tool), from both DEFAULTS. */
  decoys: Object.fromEntries(decoyTools.map((tool) => [tool, union(ref.defaults.ignoreArgs[tool], DEFAULTS.ignoreArgs[tool])])) as Readonly<Record<string, readonly string[]>>,
  /** Host spellings the shipped aliases fold, with what they fold to. */
  aliasHosts: union(aliasEntries.flatMap(([from, to]) => [from, to])),
  /** Keys removed in 0.2.0: a config carrying one fails the load (ours are not exported; config.test.ts pins each message). */
  removedKeys: union(ref.removedKeys),
  /** Measures and keys of the shipped `limits`, but the opt-in measures the oracle does not have. */
  limitKeys: union(Object.keys(ref.defaults.limits), Object.keys(DEFAULTS.limits)).filter((key) => !OPT_IN_MEASURES.includes(key)),
} as const;

/** One word a volatile flag takes: `--max-time 7`, `--max-time=7`, `-m7`, or a bare switch or cluster. */
export function volatileWord(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const n = 1 + Math.floor(random() * 120);
  switch (Math.floor(random() * 5)) {
    case 0:
    case 1: {
      const flag = pick(VOCABULARY.volatileValueFlags);
      if (flag.startsWith('--')) return random() < 0.3 ? `${flag}=${n}` : `${flag} ${n}`;
      return random() < 0.4 ? `${flag}${n}` : `${flag} ${n}`;
    }
    case 2:
      return pick(VOCABULARY.volatileSwitches);
    default: {
      let cluster = '-';
      for (let i = 1 + Math.floor(random() * 3); i > 0; i -= 1) cluster += pick(VOCABULARY.volatileLetters);
      // Now and then a letter that is not volatile, so the whole cluster is kept.
      return random() < 0.1 ? `${cluster}v` : cluster;
    }
  }
}

/** A wrapper in front of a command: `sudo `, `nice -n 10 `, `env -u X `, … */
export function wrapperWords(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const wrapper = pick(VOCABULARY.wrappers);
  const roll = random();
  if (roll < 0.5) return `${wrapper} `;
  if (roll < 0.85) return `${wrapper} ${pick(VOCABULARY.wrapperValueOptions)} ${Math.floor(random() * 20)} `;
  return `${wrapper} -x `;
}

/** A host the locality rules decide on: an example of one of the patterns or names, or a near miss of one. */
export function localishHost(random: () => number): string {
  const all = [...VOCABULARY.localPatterns, ...VOCABULARY.localNames];
  const entry = all[Math.floor(random() * all.length)] as RegExp | string;
  let host: string;
  if (typeof entry === 'string') host = entry.startsWith('.') ? `dev${entry}` : entry;
  else {
    host = exampleOf(entry, random);
    // Complete a prefix into a whole address: `172.18.` + `0.3`, `fd12:` + `:1`.
    if (host.endsWith('.')) host += `${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`;
    else if (host.endsWith(':')) host += ':1';
  }
  return random() < 0.35 ? nearMiss(host, random) : host;
}

/** A query key a tracking pattern matches, or a near miss of one. */
export function trackingKey(random: () => number): string {
  const pattern = VOCABULARY.trackingKeys[Math.floor(random() * VOCABULARY.trackingKeys.length)] as RegExp;
  const key = exampleOf(pattern, random);
  return random() < 0.3 ? nearMiss(key, random) : key;
}

/** Text carrying one piece of the classifier's evidence (a marker with a value), or a near miss of it. */
export function failureEvidence(random: () => number): string {
  const marks = VOCABULARY.failureMarks;
  const mark = marks[Math.floor(random() * marks.length)] as RegExp | string;
  let text = typeof mark === 'string' ? `${mark}${random() < 0.5 ? ' under read-only mode]' : 'SIGTERM]'}` : exampleOf(mark, random);
  if (random() < 0.2) text = nearMiss(text, random);
  return text;
}
