/**
 * The body of `npm run eval` (tools/eval/main.ts), callable in process.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../../src/lib/config/config.js';
import { layConfig, PRESETS, presetConfig } from '../../src/lib/config/preset.js';
import { asUsage, runCli, UsageError, type Io } from '../lib/cli.js';
import { loadConfigFile } from '../lib/config-file.js';
import { progressLine } from '../lib/progress.js';
import { AXES, CONFIG_OPTIONS, configOf, parseAxis, type Axis, type AxisValue } from '../lib/sweep.js';
import { userPath } from '../lib/user-path.js';
import { EXPECTED_PATH, expectedOf, readExpected, regressions, type Expected } from './check.js';
import { readCorpus } from './corpus.js';
import { dominanceOf, type Dominance } from './dominance.js';
import { evaluate, type SystemRun } from './evaluate.js';
import { FIELD_DIR, fieldSystems } from './field.js';
import { dominanceLine, dominanceTable, FIELD_LEGEND, fieldTable } from './field-report.js';
import { readLabels } from './from-session-log.js';
import { TOOL_SETS, withTools, type ToolSet } from './minimal.js';
import { ablationTable, LEGEND, metricsTable, sessionsTable } from './report.js';
import { builtPlugin, referencePlugin, reminderPlugin, REMINDER_DEFAULTS, REMINDER_ENTRY, type System } from './systems.js';
import { stopsTable, TEXTS_LEGEND, textsTable } from './texts-report.js';
import type { Episode } from './episode.js';

export const EVAL_USAGE = `usage: npm run eval -- <corpus directories or files> [config] [options]

Replays sessions through the built plugin (it builds first), side by side with 0.5.2, DSH's
repeat-tool-reminder and the field, and prints how many it read, then three tables:
- the metrics: loops noticed and gated, calls from the loop's start to the first notice and the
  first denial (median/max), good sessions noticed and gated, progress sessions gated, loop
  calls that ran;
- the field: the same figures for other agents' loop detectors, and dominance: of the loops a
  peer gates, how many this plugin gates no later than one call after the earliest peer, and
  the misses (later, or never);
- the texts and the stop: the words of an ask (the configuration replayed with onLimit: ask,
  nobody answering), the characters of the system's own text the model reads and the calls it
  refuses per gated loop (a peer that halts denies every later call: they count alike), the
  runs it stopped, and the loop runs stopped that resolved later anyway.
Each call is replayed as a model step: agent/pre-step (no new messages), then the call's hooks;
a step a system rejects ends the turn, and the rest of that session is not replayed for it.
A corpus is a folder of labelled trajectories (one .jsonl per session, its first line a meta
record with the label: loop, good or progress) or of DSH session logs (labelled with --labels).

The reminder's row needs DSH itself: it is read from test/host/node_modules, which
npm run test:host installs. The field's rows are read from the folder shared/field next to
the repository's own folder (third-party rules, never copied into the repository). Without
either, its rows are left out, and the eval says so.

config (laid over onLimit: deny; the last one given wins):
  --config <file>      plugin config: .json or YAML, or a DSH patch overlay with the row
  --preset <name>      a preset (recommended)
  --set <key>=<json>   one setting, e.g. --set stale='{"limit":3}' or --set warnAt=5
  --window 16  --warnAt 7  --summarizeAt 11  --cap 12  --hostCap 16  --act 12
  --failWarnAt 3  --failLimit 5  --onLimit deny  --sequence 4x3x5  --progress results
  --exemptionCeiling 5                 (one value each; npm run sweep takes grids)
options:
  --labels <file>      labels of DSH session logs: {"<session>": "good" | "stuck" | "loop" |
                       "progress" | {"class": "loop", "loop_start": 12}}
  --systems <list>     which systems: ours,0.5.2,reminder,field (default: all that are there)
  --field <dir>        read the field from another folder of peer .mjs files
  --field-variants     add the field's other settings as rows: OpenCode as shipped, Qwen Code
                       with its opt-in heuristics (not counted in dominance)
  --tools <set>        the tool set the results are handed in: one-shot (DSH's bash, read,
                       edit, write; the default) or minimal (the minimal preset's persistent
                       bash and str_replace_editor, tools/eval/minimal.ts)
  --sessions           one row per session: where each system first noticed and gated; per
                       loop a peer gates, where this plugin gates against the earliest peer;
                       the loops this plugin gated and the runs it stopped
  --ablate             the preset, then the preset with each of its parts turned off
  --check              exit 1 if this plugin's figures are worse than the expected ones, if
                       the field's rows are not the recorded ones, or if dominance misses grow
                       (replays this plugin and the field only)
  --record             write those figures as the expected ones; a figure worse than the
                       previous record is named on stderr
  --expected <file>    where they are kept (default tools/eval/expected.json)
  --markdown           tables as Markdown
  --json               everything as JSON
`;

const SYSTEM_NAMES = ['ours', '0.5.2', 'reminder', 'field'] as const;

/** `key=<json>`: the value parsed as JSON, or taken as a string when it is not JSON (`--set onLimit=ask`). */
function parseSet(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set takes <key>=<value> (got ${JSON.stringify(text)})`);
  const raw = text.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  return [text.slice(0, eq), value];
}

interface Parsed {
  readonly paths: string[];
  readonly config: Record<string, unknown>;
  readonly flags: Record<string, unknown>;
}

function parse(args: readonly string[]): Parsed {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        ...CONFIG_OPTIONS,
        set: { type: 'string', multiple: true },
        labels: { type: 'string' },
        systems: { type: 'string' },
        field: { type: 'string' },
        'field-variants': { type: 'boolean', default: false },
        tools: { type: 'string', default: 'one-shot' },
        sessions: { type: 'boolean', default: false },
        ablate: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        record: { type: 'boolean', default: false },
        expected: { type: 'string' },
        markdown: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  const flags = values as Record<string, unknown>;
  let config: Record<string, unknown> = { onLimit: 'deny' };
  if (typeof flags.config === 'string') config = layConfig(config, asUsage(() => loadConfigFile(userPath(flags.config as string))));
  if (typeof flags.preset === 'string') config = layConfig(config, { preset: flags.preset });
  const grid: [Axis, AxisValue][] = [];
  for (const axis of AXES) {
    const text = flags[axis];
    if (typeof text !== 'string') continue;
    const choices = asUsage(() => parseAxis(axis, text));
    if (choices.length !== 1) throw new UsageError(`--${axis} takes one value here (got ${text}); npm run sweep replays grids`);
    grid.push([axis, choices[0] as AxisValue]);
  }
  config = configOf(config, { values: grid });
  for (const entry of (flags.set as string[] | undefined) ?? []) {
    const [key, value] = parseSet(entry);
    config = layConfig(config, { [key]: value });
  }
  asUsage(() => resolveConfig(config));
  return { paths: positionals.map(userPath), config, flags };
}

/** The config a system that gates is replayed with a second time, for its asks: the same one when it asks already. */
function askingConfig<T extends Record<string, unknown>>(config: T): T {
  return config.onLimit === 'ask' ? config : { ...config, onLimit: 'ask' };
}

interface Chosen {
  readonly systems: System[];
  /** Why a system asked for is not there, one line each. */
  readonly missing: string[];
}

interface Wanted {
  readonly names: readonly string[];
  readonly config: Record<string, unknown>;
  /** How the tables name this plugin's row. */
  readonly label: string;
  readonly fieldDir: string;
  readonly variants: boolean;
}

async function systemsFor({ names, config, label, fieldDir, variants }: Wanted): Promise<Chosen> {
  const systems: System[] = [];
  const missing: string[] = [];
  for (const name of names) {
    if (name === 'ours') {
      systems.push({ label, short: 'ours', role: 'ours', plugin: 'repeat-tool-breaker', apply: await builtPlugin(), config, gates: true, askConfig: askingConfig(config) });
    } else if (name === 'asking') {
      const asking = { onLimit: 'ask' };
      systems.push({ label: configLabel(asking), short: 'asking', role: 'asking', plugin: 'repeat-tool-breaker', apply: await builtPlugin(), config: asking, gates: true, askConfig: asking });
    } else if (name === '0.5.2') {
      // 0.5.2 knows none of the later keys and ignores them; it gets the same onLimit.
      const reference = { onLimit: config.onLimit };
      systems.push({ label: '0.5.2', short: '0.5.2', role: 'reference', plugin: 'repeat-tool-breaker', apply: await referencePlugin(), config: reference, gates: true, askConfig: askingConfig(reference) });
    } else if (name === 'reminder') {
      const apply = await reminderPlugin();
      if (apply !== undefined) systems.push({ label: 'repeat-tool-reminder rc.8', short: 'reminder', role: 'reminder', plugin: 'repeat-tool-reminder', apply, config: REMINDER_DEFAULTS, gates: false });
      else missing.push(`the repeat-tool-reminder row is left out: it runs DSH's own plugin from ${relative(process.cwd(), REMINDER_ENTRY)}, which is not installed (npm run test:host installs test/host)`);
    } else {
      const field = await fieldSystems({ variants, dir: fieldDir });
      if (field.length > 0) systems.push(...field);
      else missing.push(`the field's rows are left out: ${relative(process.cwd(), fieldDir) || '.'} is not there (the field's detectors are kept beside the repository, never in it)`);
    }
  }
  return { systems, missing };
}

/** `1 session`, `106 sessions`. */
function sessions(count: number): string {
  return `${count} ${count === 1 ? 'session' : 'sessions'}`;
}

/** What was read: `106 sessions: 23 loop, 82 good, 1 progress` (and the unlabelled ones, if any). */
export function corpusLine(episodes: readonly Episode[]): string {
  const { loop, good, progress, unlabelled } = countsOf(episodes);
  const parts = [`${loop} loop`, `${good} good`, `${progress} progress`];
  if (unlabelled > 0) parts.push(`${unlabelled} unlabelled`);
  return `${sessions(episodes.length)}: ${parts.join(', ')}`;
}

/** The sessions read, by label. */
function countsOf(episodes: readonly Episode[]): { loop: number; good: number; progress: number; unlabelled: number } {
  const count = (kind: string | undefined): number => episodes.filter((episode) => episode.label?.class === kind).length;
  return { loop: count('loop'), good: count('good'), progress: count('progress'), unlabelled: count(undefined) };
}

/** How the table names this plugin's configuration. */
function configLabel(config: Record<string, unknown>): string {
  const { onLimit, preset, ...rest } = config;
  const parts = [typeof preset === 'string' ? `preset ${preset}` : 'defaults'];
  if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
  if (onLimit !== 'deny') parts.push(`onLimit ${String(onLimit)}`);
  return `this plugin, ${parts.join(' + ')}`;
}

/** The preset's parts, each turned off in turn, as configurations without the `preset` key. */
function ablations(config: Record<string, unknown>): { label: string; config: Record<string, unknown> }[] {
  const name = config.preset;
  if (typeof name !== 'string') throw new UsageError('--ablate needs a preset (--preset recommended, or preset: in --config)');
  const preset = PRESETS[name];
  if (preset === undefined) throw new UsageError(`unknown preset ${JSON.stringify(name)}`);
  const { preset: _named, ...rest } = config;
  const variant = (skip: Set<string>): Record<string, unknown> => layConfig(presetConfig(preset, skip), rest);
  return [
    { label: `preset ${name}`, config: variant(new Set()) },
    ...preset.parts.map((part) => ({ label: `without ${part.name}`, config: variant(new Set([part.name])) })),
  ];
}

/** The episodes named on the command line, in the tool set asked for; `undefined` when none could be read. */
function readEpisodes(paths: readonly string[], flags: Record<string, unknown>, io: Io): Episode[] | undefined {
  if (paths.length === 0) throw new UsageError('name a corpus directory or trajectory files');
  const labels = typeof flags.labels === 'string' ? asUsage(() => readLabels(userPath(flags.labels as string))) : undefined;
  const tools = flags.tools as string;
  if (!(TOOL_SETS as readonly string[]).includes(tools)) throw new UsageError(`--tools takes ${TOOL_SETS.join(' or ')} (got ${JSON.stringify(tools)})`);
  const corpus = readCorpus(paths, labels);
  for (const skipped of corpus.skipped) io.err(`eval: skipping ${skipped.path}: ${skipped.error}\n`);
  if (corpus.episodes.length === 0) {
    io.err(`eval: nothing readable under ${paths.join(', ')}\n`);
    return undefined;
  }
  return corpus.episodes.map((episode) => withTools(episode, tools as ToolSet));
}

/**
 * The systems asked for: `--check` and `--record` replay this plugin and the
 * field only, and this plugin's defaults asking when the configuration is not
 * the defaults (the words of their asks are held too).
 */
function systemNames(flags: Record<string, unknown>, config: Record<string, unknown>): string[] {
  if (flags.check === true || flags.record === true) return Object.keys(config).some((key) => key !== 'onLimit') ? ['ours', 'asking', 'field'] : ['ours', 'field'];
  const names = typeof flags.systems === 'string' ? flags.systems.split(',').map((name) => name.trim()) : [...SYSTEM_NAMES];
  for (const name of names) {
    if (!(SYSTEM_NAMES as readonly string[]).includes(name)) throw new UsageError(`--systems takes ${SYSTEM_NAMES.join(', ')} (got ${JSON.stringify(name)})`);
  }
  return names;
}

interface Replays {
  readonly runs: SystemRun[];
  readonly ablated: SystemRun[];
}

/** Every system, then every variant of the ablation, over the episodes, with one progress line for all. */
async function replayAll(episodes: readonly Episode[], systems: readonly System[], variants: readonly { label: string; config: Record<string, unknown> }[], io: Io): Promise<Replays> {
  const total = episodes.length * (systems.length + variants.length);
  const onSession = io.progress === undefined ? undefined : progressLine('replayed', total, io.progress);
  let offset = 0;
  const options = onSession === undefined ? {} : { onSession: (done: number): void => onSession(offset + done, total) };
  const runs = await evaluate(episodes, systems, options);
  offset += episodes.length * systems.length;
  const apply = await builtPlugin();
  const ablated: SystemRun[] = [];
  for (const variant of variants) {
    const system: System = { label: variant.label, short: variant.label, role: 'ours', plugin: 'repeat-tool-breaker', apply, config: variant.config, gates: true };
    ablated.push(...(await evaluate(episodes, [system], options)));
    offset += episodes.length;
  }
  return { runs, ablated };
}

/** What a run measured, as expected.json would record it; `undefined` without this plugin's row. */
function measured(runs: readonly SystemRun[], dominance: Dominance | undefined, corpus: string, config: Record<string, unknown>): Expected | undefined {
  const mine = runs.find((run) => run.role === 'ours');
  if (mine === undefined) return undefined;
  const peers = runs.filter((run) => run.role === 'peer');
  const defaults = runs.find((run) => run.role === 'asking')?.figures.askWords;
  return expectedOf(mine.figures, corpus, config, dominance === undefined ? undefined : { peers, dominance }, defaults);
}

/**
 * `--record`: writes the figures, naming on stderr any that is worse than the
 * record it replaces. Without the field here, the field's record is kept as it
 * was (dropping it would leave CI, which has the field, nothing to check).
 */
function record(measuredNow: Expected, path: string, io: Io): void {
  const previous = existsSync(path) ? readExpected(path) : undefined;
  let actual = measuredNow;
  if (actual.field === undefined && previous?.field !== undefined) {
    actual = { ...actual, field: previous.field, ...(previous.dominance === undefined ? {} : { dominance: previous.dominance }) };
    io.err('eval --record: the field is not here: its recorded rows and dominance are kept as they were\n');
  }
  // A first record of the field is no regression.
  const compared = previous?.field === undefined ? { ...actual, field: undefined } : actual;
  const worse = previous === undefined ? [] : regressions(compared, previous);
  if (worse.length > 0) io.err(`eval --record: worse than the previous record:\n${worse.map((line) => `  ${line}`).join('\n')}\n`);
  writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
  io.err(`eval: recorded the figures in ${path}\n`);
}

interface Report {
  readonly episodes: readonly Episode[];
  readonly config: Record<string, unknown>;
  readonly replays: Replays;
  readonly dominance: Dominance | undefined;
  readonly worse: readonly string[];
}

/** Everything as JSON; absent figures are written as null, so every session has the same fields. */
function jsonReport({ episodes, config, replays, dominance, worse }: Report): string {
  const read = { sessions: episodes.length, ...countsOf(episodes) };
  const body = { version: 1, config, read, systems: replays.runs, ablation: replays.ablated, regressions: worse, dominance };
  return `${JSON.stringify(body, (_key, value: unknown) => value ?? null, 2)}\n`;
}

/** The tables: the metrics, the field and its dominance, the texts and the stop; then the ablation and the sessions. */
function textReport({ episodes, replays, dominance }: Report, flags: Record<string, unknown>): string {
  const markdown = flags.markdown === true;
  const { runs, ablated } = replays;
  const main = runs.filter((run) => run.role === 'ours' || run.role === 'reference' || run.role === 'reminder');
  const field = runs.filter((run) => run.role === 'peer' || run.role === 'variant');
  const mine = runs.filter((run) => run.role === 'ours');
  const gates = new Map(runs.map((run) => [run.system, run.gates]));
  let text = `${corpusLine(episodes)}\n\n${metricsTable(main, gates, markdown)}\n\n${LEGEND}\n`;
  if (field.length > 0) {
    text += `\n${fieldTable([...mine, ...field], markdown)}\n\n${FIELD_LEGEND}\n`;
    if (dominance !== undefined) text += `${dominanceLine(dominance)}\n`;
  }
  text += `\n${textsTable(runs.filter((run) => run.gates), markdown)}\n\n${TEXTS_LEGEND}\n`;
  if (ablated.length > 0) text += `\n${ablationTable(ablated, markdown)}\n`;
  if (flags.sessions === true) {
    text += `\n${sessionsTable(main, markdown)}\n`;
    if (dominance !== undefined) text += `\n${dominanceTable(dominance, markdown)}\n`;
    for (const run of mine) text += `\n${stopsTable(run, markdown)}\n`;
  }
  return text;
}

export function evalCli(args: readonly string[], io: Io): Promise<number> {
  return runCli('eval', EVAL_USAGE, io, async () => {
    const { paths, config, flags } = parse(args);
    if (flags.help === true) {
      io.out(EVAL_USAGE);
      return 0;
    }
    const episodes = readEpisodes(paths, flags, io);
    if (episodes === undefined) return 1;
    const fieldDir = typeof flags.field === 'string' ? userPath(flags.field) : FIELD_DIR;
    const wanted = { names: systemNames(flags, config), config, label: configLabel(config), fieldDir, variants: flags['field-variants'] === true };
    const { systems, missing } = await systemsFor(wanted);
    for (const line of missing) io.err(`eval: ${line}\n`);
    const replays = await replayAll(episodes, systems, flags.ablate === true ? ablations(config) : [], io);
    const mine = replays.runs.find((run) => run.role === 'ours');
    const peers = replays.runs.filter((run) => run.role === 'peer');
    const dominance = mine !== undefined && peers.length > 0 ? dominanceOf(mine, peers) : undefined;
    const corpusName = paths.map((path) => relative(process.cwd(), path) || '.').join(', ');
    const actual = measured(replays.runs, dominance, corpusName, config);
    const expectedPath = typeof flags.expected === 'string' ? userPath(flags.expected) : EXPECTED_PATH;
    if (flags.record === true && actual !== undefined) record(actual, expectedPath, io);
    const worse = flags.check === true && actual !== undefined ? regressions(actual, asUsage(() => readExpected(expectedPath))) : [];
    const report: Report = { episodes, config, replays, dominance, worse };
    io.out(flags.json === true ? jsonReport(report) : textReport(report, flags));
    let status = 0;
    if (flags.check === true) {
      if (worse.length > 0) {
        io.err(`eval --check: worse than ${expectedPath}:\n${worse.map((line) => `  ${line}`).join('\n')}\n`);
        status = 1;
      } else io.err(`eval --check: no figure is worse than ${expectedPath}${dominance === undefined ? '' : ', the field is the one recorded, and no more loops are missed against it'}\n`);
    }
    const unlabelled = episodes.filter((episode) => episode.label === undefined).length;
    if (unlabelled > 0) io.err(`eval: ${sessions(unlabelled)} ${unlabelled === 1 ? 'carries' : 'carry'} no label and ${unlabelled === 1 ? 'is' : 'are'} counted nowhere (--labels)\n`);
    return status;
  });
}
