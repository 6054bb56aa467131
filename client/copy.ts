/**
 * Every word the card shows, in one English map: labels, hints, badges, the
 * footer's statuses and the card's own messages. Nothing else under client/
 * holds user-visible text, so a second language is a second map of this shape.
 * The plugin's validation messages come from `resolveConfig` and are only
 * re-worded here where the card's controls spell a value differently
 * (wording.ts).
 */

/** A field's two lines of text: its label, and what it does. */
export interface FieldCopy {
  readonly label: string;
  readonly hint: string;
}

const fields = {
  preset: {
    label: 'Preset',
    hint: 'recommended: the mechanisms measured on real agent sessions (stale, editRetry, timeouts, failureProgress, progress: changes, act). Settings below override it.',
  },
  warnAt: { label: 'First advisory at', hint: 'Occurrences of one measure that earn the first advisory; off silences it.' },
  summarizeAt: { label: 'Second advisory at', hint: 'Occurrences that earn the "summarize and change approach" advisory.' },
  window: { label: 'Window', hint: 'Recent calls per agent that are counted (at least 4).' },
  failWarnAt: { label: 'Failure advisory at', hint: 'Consecutive failures of one measure that earn an advisory.' },
  failLimit: { label: 'Failure gate at', hint: 'Failures after which the gate acts; off keeps the advisory only.' },
  onLimit: { label: 'At a cap', hint: 'ask: the operator decides (Allow once / Reject). deny: blocked without asking.' },
  exemptionCeiling: { label: 'Calls per approval', hint: 'Calls an Allow once lets through before the measure is denied outright.' },
  progress: {
    label: 'Progress',
    hint: 'results: hold a repeat gate back while the recent results still differ. changes: a run after a change to the files counts from 1 again.',
  },
  failureProgress: { label: 'Failure progress', hint: 'restart: a failure with a new error, or after a change to the files, starts its streak again.' },
  localHosts: { label: 'Local traffic', hint: 'deny: counted like any other. allow: calls to local addresses only get no target fingerprints.' },
  includeLocal: { label: 'Count local hosts', hint: 'Whether localhost and private addresses count toward the Same host cap.' },
  hostAliases: { label: 'Host aliases', hint: 'One "from = to" per line: host spellings that mean the same host.' },
  stale: { label: 'Stale track', hint: 'The same call returning the same result with nothing changed in between.' },
  'stale.warnAt': { label: 'Advisory at', hint: 'Same results in a row that earn the advisory.' },
  'stale.limit': { label: 'Gate after', hint: 'Same results in a row after which the next such call meets the gate; off advises only.' },
  editRetry: { label: 'Edit-retry track', hint: 'Edits of one file rejected again and again, however they are respelled.' },
  'editRetry.warnAt': { label: 'Advisory at', hint: 'Rejected edits of one file in a row that earn the advisory.' },
  'editRetry.limit': { label: 'Gate after', hint: 'Rejected edits in a row after which the next edit of the file meets the gate; off advises only.' },
  timeouts: { label: 'Timeout track', hint: 'One program running out of time again, whatever its flags.' },
  'timeouts.warnAt': { label: 'Advisory at', hint: 'Time-outs of one program this turn that earn the advisory.' },
  'timeouts.limit': { label: 'Gate after', hint: 'Time-outs after which the next run of the program meets the gate; off advises only.' },
  sequence: { label: 'Sequence track', hint: 'Cycles of different calls repeated back to back (A, B, A, B, …).' },
  'sequence.length': { label: 'Longest cycle', hint: 'Distinct calls in the longest cycle looked for (at least 2).' },
  'sequence.count': { label: 'Advisory after', hint: 'Back-to-back repetitions of a cycle that earn the advisory.' },
  'sequence.limit': { label: 'Gate after', hint: 'Repetitions after which the cycle meets the gate; off advises only.' },
  duplicateText: { label: 'Duplicated context track', hint: 'The same large text block injected into the context again and again.' },
  'duplicateText.minChars': { label: 'Shortest block', hint: 'Characters a text block needs to be fingerprinted.' },
  'duplicateText.threshold': { label: 'Notice at', hint: 'Occurrences within the window that earn a notice (at least 2).' },
  'duplicateText.windowMs': { label: 'Window (ms)', hint: 'Time within which occurrences are counted.' },
  'duplicateText.cooldownMs': { label: 'Cooldown (ms)', hint: 'Silence for one text after its notice.' },
  exclude: { label: 'Never track', hint: 'Tool names never counted, comma-separated; * is a wildcard.' },
  include: { label: 'Track only', hint: 'When not empty, only these tool names are counted.' },
  ignoreArgs: { label: 'Ignored arguments', hint: 'One "tool: name, name" per line (* for every tool): decoy arguments dropped before fingerprinting.' },
  previewChars: { label: 'Fingerprint preview', hint: 'Characters of a fingerprint quoted in a message.' },
  resultPreviewChars: { label: 'Result preview', hint: 'Characters of the previous result quoted in a denial.' },
} as const satisfies Readonly<Record<string, FieldCopy>>;

/** The shipped caps, in the order of DEFAULTS.limits; the config key shows beside the label. */
const caps = {
  exact: { label: 'Identical calls', hint: 'Same tool, same arguments (decoy arguments aside).' },
  cmd: { label: 'Same shell command', hint: 'The same command line, volatile flags (-s, --max-time N, …) aside.' },
  net: { label: 'Same URL', hint: 'Host spellings and tracking parameters folded.' },
  sink: { label: 'Same output file', hint: 'Shell output written to the same file (-o, >, tee).' },
  host: { label: 'Same host', hint: 'Calls to the same host.' },
  site: { label: 'Same site', hint: 'Calls to the same site (the last two labels of the host).' },
  'family:http-fetch': { label: 'All HTTP fetches', hint: 'Every HTTP fetch: curl, wget and URL tools alike.' },
  'verb:curl': { label: 'All curl commands', hint: 'Every curl command.' },
  'verb:wget': { label: 'All wget commands', hint: 'Every wget command.' },
  act: { label: 'Same shell action', hint: 'The same shell action however it is spelled (quoting, flag order, python/python3, | head, …); off unless set.' },
} as const satisfies Readonly<Record<string, FieldCopy>>;

const groups = {
  preset: 'Preset',
  stages: 'Stages',
  caps: 'Caps',
  failure: 'Failure track',
  gate: 'Gate policy',
  local: 'Local addresses',
  tracks: 'Opt-in tracks',
  counted: 'What is counted',
  messages: 'Messages',
} as const;

/** The advisory stages a cap can pre-empt, by config key. */
const stages = {
  warnAt: 'first advisory',
  summarizeAt: 'second advisory',
  failWarnAt: 'failure advisory',
} as const;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function list(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export const COPY = {
  title: 'Repeat-tool breaker',
  description: 'Stops an agent that repeats the same tool call: advisories first, then a gate.',
  /** The header's accessible name, as DSH's own cards word it ("Show settings: Shell"). */
  header: (open: boolean, title: string) => `${open ? 'Hide settings' : 'Show settings'}: ${title}`,
  unsaved: 'Unsaved',
  overridden: 'Overridden',
  reset: 'Reset to default',
  resetLabel: (label: string, value: string) => `Reset ${label} to default (${value})`,
  readOnly: 'This deployment stores settings read-only.',
  live:
    'Saved values reach running sessions without a restart. A change that tightens the breaker applies at once; one that loosens it reaches an agent ' +
    'from its next human message.',
  save: 'Save',
  saving: 'Saving…',
  discard: 'Discard',
  saved: 'Saved.',
  hostRefused: 'The host did not accept these values; they are kept for you to correct.',
  renderFailed: (title: string) => `The ${title} card failed to render; its settings can still be edited in the profile's cordis.patch.yml.`,
  /** Beside a disabled Save: how many fields hold it back (their labels follow as links). */
  needFixing: (n: number) => `${n === 1 ? '1 field needs' : `${n} fields need`} fixing:`,
  none: 'none',
  defaultIs: (text: string) => `Default: ${text}`,
  /** A multi-line field: its default is what the box shows, or so many lines a reset brings back. */
  defaultShown: 'Default: as shown.',
  defaultLines: (n: number) => `Default: ${plural(n, 'line', 'lines')}; Reset to default brings them back.`,
  listPlaceholder: 'none',
  fields,
  caps,
  customCap: { label: 'One fingerprint', hint: 'A cap on one measure or one full fingerprint.' },
  groups,
  /** Layers below the drafts that do not resolve: the form cannot show them as fields. */
  profileInvalid: (message: string) => `the profile's config for this plugin is invalid: ${message}`,
  savedInvalid: (message: string) => `the saved settings are invalid: ${message}`,
  /** The card's own refusals: its line formats, and whole numbers for caps. */
  badLine: (path: string, at: number, form: string, line: string) => `\`${path}\` line ${at} must read \`${form}\` (got ${JSON.stringify(line)})`,
  cannotDrop: (path: string, key: string) =>
    `\`${path}\` cannot drop \`${key}\` here: it comes from the defaults or the profile; give it another target, or reset the field`,
  wholeCap: (path: string, got: number, nullWord: string) => `\`${path}\` must be a whole number of calls, 2 or more, or \`${nullWord}\` (got ${got})`,
  /** Under a cap whose gate comes before a stage: that stage never fires for the measure. */
  deadAtCap: (cap: number, dead: readonly { readonly key: keyof typeof stages; readonly at: number }[]) =>
    `The gate at ${cap} comes first: the ${list(dead.map((d) => `${stages[d.key]} (at ${d.at})`))} never ${dead.length === 1 ? 'fires' : 'fire'} for this measure.`,
  /** Under a stage that some caps pre-empt. */
  deadStage: (labels: readonly string[]) => `Never fires for ${list(labels)}: ${labels.length === 1 ? 'its cap is' : 'their caps are'} at or below it.`,
  /** Under the failure gate when the failure advisory comes after it. */
  deadFailure: (warnAt: number, limit: number) => `The failure advisory (at ${warnAt}) never fires: the gate acts after ${limit} failures.`,
  deadFailureStage: (limit: number) => `Never fires: the failure gate acts after ${limit} failures.`,
} as const;

export type StageKey = keyof typeof stages;
export type FieldPath = keyof typeof fields;
