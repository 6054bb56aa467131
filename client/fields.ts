/**
 * Every setting the card shows, as data: where it lives in the config, how it
 * is edited, and the one line that says what it does. The card and the form
 * know nothing about any single setting; adding one is a row here.
 */

/** How a field's value is edited and written. */
export type FieldKind =
  /** A whole number; `nullWord` (e.g. `off`) stands for `null` where the setting allows it. */
  | { readonly type: 'number'; readonly nullWord?: string }
  | { readonly type: 'choice'; readonly options: readonly string[] }
  | { readonly type: 'flag' }
  /** A comma-separated list of names. */
  | { readonly type: 'list' }
  /** One `key: a, b` line per entry (a map of name lists). */
  | { readonly type: 'lists' }
  /** One `from = to` line per entry (a map of names). */
  | { readonly type: 'aliases' }
  /** An opt-in track: on (a mapping) or off (`null`). */
  | { readonly type: 'track' };

export interface Field {
  /** The config path, dotted below the top level: `warnAt`, `limits.exact`, `sequence.count`. */
  readonly path: string;
  readonly label: string;
  readonly hint: string;
  readonly kind: FieldKind;
}

export interface Group {
  readonly id: string;
  readonly title: string;
  readonly fields: readonly Field[];
}

const off = { type: 'number', nullWord: 'off' } as const;
const count = { type: 'number' } as const;

/** The caps shipped in DEFAULTS, in this order; any other key the config holds follows them. */
export const CAP_HINTS: Readonly<Record<string, string>> = {
  exact: 'Identical calls: same tool, same arguments (decoy arguments aside).',
  cmd: 'The same shell command, volatile flags (-s, --max-time N, …) aside.',
  net: 'The same URL, host spellings and tracking parameters folded.',
  sink: 'Shell output written to the same file (-o, >, tee).',
  host: 'Calls to the same host.',
  site: 'Calls to the same site (the last two labels of the host).',
  'family:http-fetch': 'Every HTTP fetch: curl, wget and URL tools alike.',
  'verb:curl': 'Every curl command.',
  'verb:wget': 'Every wget command.',
  act: 'The same shell action however it is spelled (quoting, flag order, python/python3, | head, …); off unless set.',
};

/** The card's groups, in display order; the caps group is completed from the config's own keys. */
export const GROUPS: readonly Group[] = [
  {
    id: 'stages',
    title: 'Stages',
    fields: [
      { path: 'warnAt', label: 'First advisory at', hint: 'Occurrences of one measure that earn the first advisory; off silences it.', kind: off },
      { path: 'summarizeAt', label: 'Second advisory at', hint: 'Occurrences that earn the "summarize and change approach" advisory.', kind: off },
      { path: 'window', label: 'Window', hint: 'Recent calls per agent that are counted (at least 4).', kind: count },
    ],
  },
  { id: 'caps', title: 'Caps', fields: [] },
  {
    id: 'failure',
    title: 'Failure track',
    fields: [
      { path: 'failWarnAt', label: 'Failure advisory at', hint: 'Consecutive failures of one measure that earn an advisory.', kind: off },
      { path: 'failLimit', label: 'Failure gate at', hint: 'Failures after which the gate acts; off keeps the advisory only.', kind: off },
    ],
  },
  {
    id: 'gate',
    title: 'Gate policy',
    fields: [
      { path: 'onLimit', label: 'At a cap', hint: 'ask: the operator decides (Allow once / Reject). deny: blocked without asking.', kind: { type: 'choice', options: ['ask', 'deny'] } },
      { path: 'exemptionCeiling', label: 'Calls per approval', hint: 'Calls an Allow once lets through before the measure is denied outright.', kind: { type: 'number', nullWord: 'unlimited' } },
      { path: 'progress', label: 'Progress', hint: 'results: hold a repeat gate back while the recent results still differ.', kind: { type: 'choice', options: ['ignore', 'results'] } },
    ],
  },
  {
    id: 'local',
    title: 'Local addresses',
    fields: [
      { path: 'localHosts', label: 'Local traffic', hint: 'deny: counted like any other. allow: calls to local addresses only get no target fingerprints.', kind: { type: 'choice', options: ['deny', 'allow'] } },
      { path: 'includeLocal', label: 'Count local hosts in host:', hint: 'Whether localhost and private addresses feed the host measure.', kind: { type: 'flag' } },
      { path: 'hostAliases', label: 'Host aliases', hint: 'One "from = to" per line: host spellings that mean the same host.', kind: { type: 'aliases' } },
    ],
  },
  {
    id: 'tracks',
    title: 'Opt-in tracks',
    fields: [
      { path: 'sequence', label: 'Sequence track', hint: 'Cycles of different calls repeated back to back (A, B, A, B, …).', kind: { type: 'track' } },
      { path: 'sequence.length', label: 'Longest cycle', hint: 'Distinct calls in the longest cycle looked for (at least 2).', kind: count },
      { path: 'sequence.count', label: 'Advisory after', hint: 'Back-to-back repetitions of a cycle that earn the advisory.', kind: count },
      { path: 'sequence.limit', label: 'Gate after', hint: 'Repetitions after which the cycle meets the gate; off advises only.', kind: off },
      { path: 'duplicateText', label: 'Duplicated context track', hint: 'The same large text block injected into the context again and again.', kind: { type: 'track' } },
      { path: 'duplicateText.minChars', label: 'Shortest block', hint: 'Characters a text block needs to be fingerprinted.', kind: count },
      { path: 'duplicateText.threshold', label: 'Notice at', hint: 'Occurrences within the window that earn a notice (at least 2).', kind: count },
      { path: 'duplicateText.windowMs', label: 'Window (ms)', hint: 'Time within which occurrences are counted.', kind: count },
      { path: 'duplicateText.cooldownMs', label: 'Cooldown (ms)', hint: 'Silence for one text after its notice.', kind: count },
    ],
  },
  {
    id: 'counted',
    title: 'What is counted',
    fields: [
      { path: 'exclude', label: 'Never track', hint: 'Tool names never counted, comma-separated; * is a wildcard.', kind: { type: 'list' } },
      { path: 'include', label: 'Track only', hint: 'When not empty, only these tool names are counted.', kind: { type: 'list' } },
      { path: 'ignoreArgs', label: 'Ignored arguments', hint: 'One "tool: name, name" per line (* for every tool): decoy arguments dropped before fingerprinting.', kind: { type: 'lists' } },
    ],
  },
  {
    id: 'messages',
    title: 'Messages',
    fields: [
      { path: 'previewChars', label: 'Fingerprint preview', hint: 'Characters of a fingerprint quoted in a message.', kind: count },
      { path: 'resultPreviewChars', label: 'Result preview', hint: 'Characters of the previous result quoted in a denial.', kind: count },
    ],
  },
];

/** A cap field for one `limits` key. */
export function capField(key: string): Field {
  return {
    path: `limits.${key}`,
    label: `${key}:`,
    hint: CAP_HINTS[key] ?? 'A cap on one measure or one full fingerprint.',
    kind: off,
  };
}

/** The groups with the caps group holding one field per key of `limits` (shipped keys first). */
export function groupsFor(limitKeys: readonly string[]): Group[] {
  const shipped = Object.keys(CAP_HINTS);
  const extra = limitKeys.filter((k) => !shipped.includes(k)).sort();
  const caps = [...shipped, ...extra].map(capField);
  return GROUPS.map((group) => (group.id === 'caps' ? { ...group, fields: caps } : group));
}

/** The top-level config key a field writes (`limits` for `limits.exact`). */
export function topKey(path: string): string {
  const dot = path.indexOf('.');
  return dot === -1 ? path : path.slice(0, dot);
}

/** The key below the top level (`exact` for `limits.exact`), or undefined for a top-level field. */
export function subKey(path: string): string | undefined {
  const dot = path.indexOf('.');
  return dot === -1 ? undefined : path.slice(dot + 1);
}
