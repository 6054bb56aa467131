/**
 * The card's English: every word it shows, as one flat dictionary of the shape
 * DSH's locale service registers (`register(ns, { zh, en })`: key → template
 * with `{name}` placeholders). zh.ts holds the same keys in Chinese; copy.ts
 * turns either into the words the card renders. The refusals of
 * `resolveConfig` are not here: they come from src/lib/config/messages.ts and
 * are registered beside these under `config.` (i18n.ts).
 */
export const EN = {
  title: 'Repeat-tool breaker',
  description: 'Stops an agent that repeats the same tool call: advisories first, then a gate.',
  /** The header's accessible name, as DSH's own cards word it ("Show settings: Shell"). */
  'header.show': 'Show settings: {title}',
  'header.hide': 'Hide settings: {title}',
  unsaved: 'Unsaved',
  overridden: 'Overridden',
  reset: 'Reset to default',
  resetLabel: 'Reset {label} to default ({value})',
  readOnly: 'This deployment stores settings read-only.',
  live:
    'Saved values reach running sessions without a restart. A change that tightens the breaker applies at once; one that loosens it reaches an agent ' +
    'from its next human message.',
  save: 'Save',
  saving: 'Saving…',
  discard: 'Discard',
  saved: 'Saved.',
  hostRefused: 'The host did not accept these values; they are kept for you to correct.',
  renderFailed: "The {title} card failed to render; its settings can still be edited in the profile's cordis.patch.yml.",
  /** Beside a disabled Save: how many fields hold it back (their labels follow as links). */
  'needFixing.one': '1 field needs fixing:',
  'needFixing.many': '{n} fields need fixing:',
  none: 'none',
  defaultIs: 'Default: {text}',
  /** A multi-line field: its default is what the box shows, or so many lines a reset brings back. */
  defaultShown: 'Default: as shown.',
  'defaultLines.one': 'Default: 1 line; Reset to default brings them back.',
  'defaultLines.many': 'Default: {n} lines; Reset to default brings them back.',
  /** A value a reset returns to that the chosen preset sets. */
  fromPreset: 'From preset: {text}',
  /** The host aliases' note: the box holds the user's own lines only. */
  aliasesDefault: 'Default: none of your own.',
  /** Above the host aliases' box: the entries below the user's, read-only. */
  fixedTitle: 'Always apply (the defaults and the profile):',
  /** A field named out of its place: "Stale track › Gate after". */
  within: '{group} › {label}',
  /** What a stage's refusal offers to turn it off, in the card's words. */
  zeroOff: '{word}, 0 or a negative number',

  /** The saved section holds a value the breaker refuses (at the top of the card). */
  'stored.badge': 'Refused value in settings.yaml',
  'stored.title': 'settings.yaml holds a value the breaker refuses',
  'stored.profile':
    "None of the `repeat-tool-breaker:` section of settings.yaml applies until it is fixed: the breaker runs on the profile's settings and the defaults, as shown below.",
  'stored.before': 'None of this edit of settings.yaml applies until it is fixed: the breaker keeps the settings it ran on before it, as shown below.',
  'stored.fix': 'Fix it in settings.yaml (Settings → General → Open configuration file), or here:',
  'stored.resetKey': 'Reset {key}',
  'stored.resetSection': 'Reset the whole section',
  'stored.holdsSave': 'Save waits until the refused value in settings.yaml is fixed (at the top of the card).',

  /** settings.yaml holds values the breaker refuses: each is left out and the rest applies (at the top of the card). */
  'dropped.badge.one': '1 value of settings.yaml left out',
  'dropped.badge.many': '{n} values of settings.yaml left out',
  'dropped.title.one': 'settings.yaml holds a value the breaker refuses: it is left out',
  'dropped.title.many': 'settings.yaml holds {n} values the breaker refuses: they are left out',
  'dropped.rest': 'The rest of the `repeat-tool-breaker:` section applies, as shown below.',
  'dropped.fix': 'Fix it in settings.yaml (Settings → General → Open configuration file), or remove it here: Save then writes the section without it.',
  'dropped.remove': 'Remove from settings.yaml',
  'dropped.removeLabel': 'Remove {path} from settings.yaml',
  'dropped.removing': 'Removed on Save',
  'dropped.replacing': 'Replaced on Save',
  'dropped.keep': 'Keep',
  'dropped.keepLabel': 'Keep {path} in settings.yaml',
  'dropped.goTo': 'Fix it here',
  'dropped.goToLabel': 'Fix it in the field {label}',
  /** Under a field whose value in settings.yaml is left out. */
  'dropped.field': 'Left out of settings.yaml: {message}',

  /** A fold's row. */
  'fold.details': '{label}: settings',
  'fold.pair': '{label}: {value}',
  'fold.problem': 'Needs fixing',
  'fold.off': '{n} off',
  'fold.lines.one': '1 line',
  'fold.lines.many': '{n} lines',

  /** Under the preset: what it sets, read from its parts. */
  'preset.adds': 'Saving applies {name}. It sets:',
  'preset.applies': '{name} sets:',
  'preset.removes': 'Saving removes {name}. What it set goes back:',
  'preset.overridden': '{value} (overridden here: {instead})',
  'preset.back': '{value} → {instead}',
  listPlaceholder: 'none',

  'field.preset.label': 'Preset',
  'field.preset.hint': 'recommended: the mechanisms measured on real agent sessions; the list below says what it sets. Settings below override it.',
  'field.warnAt.label': 'First advisory at',
  'field.warnAt.hint': "The repeat track's first advisory: how many times one measure comes up in the window; off silences it.",
  'field.summarizeAt.label': 'Second advisory at',
  'field.summarizeAt.hint': 'The repeat track\'s "summarize and change approach" advisory: how many times one measure comes up.',
  'field.window.label': 'Window',
  'field.window.hint': 'Recent calls per agent that are counted (at least 4).',
  'field.failWarnAt.label': 'Failure advisory at',
  'field.failWarnAt.hint': 'Consecutive failures of one measure that earn an advisory.',
  'field.failLimit.label': 'Failure gate at',
  'field.failLimit.hint': 'Failures after which the gate acts; off keeps the advisory only.',
  'field.onLimit.label': 'At a cap',
  'field.onLimit.hint': 'ask: the operator decides (Allow once / Reject). deny: blocked without asking.',
  'field.exemptionCeiling.label': 'Exemption ceiling',
  'field.exemptionCeiling.hint': 'How many more calls like it one Allow once lets run this turn; after that they are refused without asking.',
  'field.stopAfter.label': 'End the turn after',
  'field.stopAfter.hint': 'Refused calls of one loop in a turn after which the turn ends and is handed back to you.',
  'field.progress.label': 'Progress',
  'field.progress.hint': 'results: hold a repeat gate back while the recent results still differ. changes: a run after a change to the files counts from 1 again. outcomes: a run that returned something new counts from 1 again; the same answer counts on, changed files or not.',
  'field.failureProgress.label': 'Failure progress',
  'field.failureProgress.hint': 'restart: a failure after a change to the files starts its streak again; one with a new error and nothing changed holds it. outcomes: only a new error after a change starts it again; a failure already seen extends it, changed files or not.',
  'field.localHosts.label': 'Local traffic',
  'field.localHosts.hint': 'deny: counted like any other. allow: calls to local addresses only get no target fingerprints.',
  'field.includeLocal.label': 'Count local hosts',
  'field.includeLocal.hint': 'Whether localhost and private addresses count toward the Same host cap.',
  'field.hostAliases.label': 'Host aliases',
  'field.hostAliases.hint': 'One "from = to" per line: host spellings that mean the same host. The lines above come with the breaker or the profile and always apply; a line here with the same "from" sends it elsewhere.',
  'field.exclude.label': 'Never track',
  'field.exclude.hint': 'Tool names never counted, comma-separated; * is a wildcard.',
  'field.include.label': 'Track only',
  'field.include.hint': 'When not empty, only these tool names are counted.',
  'field.ignoreArgs.label': 'Ignored arguments',
  'field.ignoreArgs.hint': 'One "tool: name, name" per line (* for every tool): decoy arguments dropped before fingerprinting.',
  'field.previewChars.label': 'Fingerprint preview',
  'field.previewChars.hint': 'Characters of a fingerprint quoted in a message.',
  'field.resultPreviewChars.label': 'Result preview',
  'field.resultPreviewChars.hint': 'Characters of the previous result quoted in a denial.',

  /** The shipped caps, in the order of DEFAULTS.limits; the config key shows beside the label. */
  'cap.exact.label': 'Identical calls',
  'cap.exact.hint': 'Same tool, same arguments (decoy arguments aside).',
  'cap.cmd.label': 'Same shell command',
  'cap.cmd.hint': 'The same command line, volatile flags (-s, --max-time N, …) aside.',
  'cap.net.label': 'Same URL',
  'cap.net.hint': 'Host spellings and tracking parameters folded.',
  'cap.sink.label': 'Same output file',
  'cap.sink.hint': 'Shell output written to the same file (-o, >, tee).',
  'cap.host.label': 'Same host',
  'cap.host.hint': 'Calls to the same host.',
  'cap.site.label': 'Same site',
  'cap.site.hint': 'Calls to the same site (the last two labels of the host).',
  'cap.family:http-fetch.label': 'All HTTP fetches',
  'cap.family:http-fetch.hint': 'Every HTTP fetch: curl, wget and URL tools alike.',
  'cap.verb:curl.label': 'All curl commands',
  'cap.verb:curl.hint': 'Every curl command.',
  'cap.verb:wget.label': 'All wget commands',
  'cap.verb:wget.hint': 'Every wget command.',
  'cap.act.label': 'Same shell action',
  'cap.act.hint': 'The same shell action however it is spelled (quoting, flag order, python/python3, | head, …); off unless set.',
  'customCap.label': 'One fingerprint',
  'customCap.hint': 'A cap on one measure or one full fingerprint.',

  'group.gate': 'Gate',
  'group.stages': 'Stages',
  'group.caps': 'Caps',
  'group.tracks': 'Opt-in tracks',
  'group.more': 'More settings',
  'fold.caps': 'More caps',
  'fold.approvals': 'Approvals and progress',
  'fold.counted': 'What is counted',
  'fold.local': 'Local addresses',
  'fold.messages': 'Messages',

  /** The advisory stages a cap can pre-empt, by config key. */
  'stage.warnAt': 'first advisory',
  'stage.summarizeAt': 'second advisory',
  'stage.failWarnAt': 'failure advisory',
  /** How a sentence joins a list: "a, b and c". */
  'list.comma': ', ',
  'list.and': ' and ',

  /** Layers below the drafts that do not resolve: the form cannot show them as fields. */
  profileInvalid: "the profile's config for this plugin is invalid: {message}",
  /** The card's own refusal: its line formats. */
  badLine: '`{path}` line {at} must read `{form}` (got {line})',
  /** Under a cap whose gate comes before a stage: that stage never fires for the measure. */
  'deadAtCap.one': 'The gate at {cap} comes first: the {stages} never fires for this measure.',
  'deadAtCap.many': 'The gate at {cap} comes first: the {stages} never fire for this measure.',
  'deadAtCap.stage': '{stage} (at {at})',
  /** Under a stage that some caps pre-empt. */
  'deadStage.one': 'Never fires for {labels}: its cap is at or below it.',
  'deadStage.many': 'Never fires for {labels}: their caps are at or below it.',
  /** Under the failure gate when the failure advisory comes after it. */
  deadFailure: 'The failure advisory (at {warnAt}) never fires: the gate acts after {limit} failures.',
  deadFailureStage: 'Never fires: the failure gate acts after {limit} failures.',
} as const satisfies Readonly<Record<string, string>>;

export type CardKey = keyof typeof EN;
