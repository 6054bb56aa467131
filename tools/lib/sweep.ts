/**
 * The sweep: one corpus replayed under a grid of settings, one row per setting.
 * Grid axes are plugin settings (`warnAt`, …, and the opt-in `sequence`,
 * `progress`, `exemptionCeiling`) plus three shorthands: `cap` sets the four
 * action-identity caps together (`limits.exact/cmd/net/sink`), `hostCap` sets
 * `limits.host` and `act` sets `limits.act` (the opt-in measure). A setting the
 * plugin would refuse, or one whose stages could never fire in order, is a
 * skipped row with the reason.
 */
import { resolveConfig, type BreakerConfig, type SequenceConfig } from '../../src/lib/config/config.js';
import { advisoriesOf, wasGated } from './report.js';
import { replaySession, type SessionReport } from './replay.js';
import type { Answer } from './replay-host.js';
import { sessionName, type SessionLog } from './session-log.js';
import { renderMarkdown, renderTable, type Cell, type Column } from './table.js';

export type Label = 'good' | 'stuck';

/** The grid axes, in the order a setting is written. */
export const AXES = [
  'window',
  'warnAt',
  'summarizeAt',
  'cap',
  'hostCap',
  'act',
  'failWarnAt',
  'failLimit',
  'onLimit',
  'sequence',
  'progress',
  'exemptionCeiling',
] as const;
export type Axis = (typeof AXES)[number];

/** The axes as `parseArgs` options: each takes a string (a comma list for the sweep, one value for eval). */
export const AXIS_OPTIONS = Object.fromEntries(AXES.map((axis) => [axis, { type: 'string' as const }])) as Record<Axis, { type: 'string' }>;

/** The options that say which config a tool replays: a file, a preset, and the axes. */
export const CONFIG_OPTIONS = { ...AXIS_OPTIONS, config: { type: 'string' as const }, preset: { type: 'string' as const } };
export type AxisValue = number | null | string;

const ACTION_MEASURES = ['exact', 'cmd', 'net', 'sink'] as const;

export interface Setting {
  /** The axis values of this setting, in {@link AXES} order, only for axes in the grid. */
  readonly values: ReadonlyArray<readonly [Axis, AxisValue]>;
}

export interface SweepRow {
  readonly setting: string;
  readonly values: Readonly<Partial<Record<Axis, AxisValue>>>;
  /** Why the setting was not replayed; absent for a replayed row. */
  readonly skipped?: string;
  readonly sessionsWarned: number;
  readonly sessionsGated: number;
  readonly messagesDelivered: number;
  readonly callsBlocked: number;
  /** Only with labels: known-good sessions that got any advisory or gate. */
  readonly goodTouched?: number;
  /** Only with labels: stuck sessions the gate engaged on (asked or denied); an advisory alone stops nothing. */
  readonly stuckCaught?: number;
}

/** A sequence setting on the command line: `<length>x<count>` or `<length>x<count>x<limit>`. */
const SEQUENCE_FORM = /^(\d+)x(\d+)(?:x(\d+))?$/;

/** The plugin's `sequence` mapping for a sweep value: `off` is `null`, `4x3x5` is `{ length: 4, count: 3, limit: 5 }`. */
export function sequenceOf(value: AxisValue): SequenceConfig | null {
  const form = typeof value === 'string' ? SEQUENCE_FORM.exec(value) : null;
  if (form === null) return null;
  return { length: Number(form[1]), count: Number(form[2]), limit: form[3] === undefined ? null : Number(form[3]) };
}

/** The words an axis takes instead of numbers. */
const WORDS: Partial<Record<Axis, readonly string[]>> = { onLimit: ['ask', 'deny'], progress: ['ignore', 'results', 'changes'] };

/** `a, b and/or c`. */
function either(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and/or ${words.at(-1) as string}`;
}

/**
 * Parses one axis's comma list: numbers, `off`/`null` (a stage, cap or opt-in
 * feature turned off), `ask`/`deny` for `onLimit`, `ignore`/`results`/`changes`
 * for `progress`, and `LxC` or `LxCxL` (length, count, limit) for `sequence`.
 */
export function parseAxis(axis: Axis, text: string): AxisValue[] {
  return text.split(',').map((raw) => {
    const value = raw.trim();
    const words = WORDS[axis];
    if (words !== undefined) {
      if (!words.includes(value)) throw new Error(`--${axis} takes ${either(words)} (got ${JSON.stringify(value)})`);
      return value;
    }
    if (value === 'off' || value === 'null') return null;
    if (axis === 'sequence') {
      const form = SEQUENCE_FORM.exec(value.toLowerCase());
      if (form === null) {
        throw new Error(`--sequence takes off, <length>x<count> or <length>x<count>x<limit>, e.g. 4x3 or 4x3x5 (got ${JSON.stringify(value)})`);
      }
      return form[0];
    }
    const number = Number(value);
    if (value === '' || !Number.isFinite(number)) throw new Error(`--${axis} takes numbers or off (got ${JSON.stringify(value)})`);
    return number;
  });
}

/** Every combination of the axes, the first axis varying slowest. */
export function expandGrid(grid: ReadonlyMap<Axis, readonly AxisValue[]>): Setting[] {
  let settings: Setting[] = [{ values: [] }];
  for (const axis of AXES) {
    const choices = grid.get(axis);
    if (choices === undefined) continue;
    settings = settings.flatMap((setting) => choices.map((value) => ({ values: [...setting.values, [axis, value] as const] })));
  }
  return settings;
}

export function settingLabel(setting: Setting): string {
  return setting.values.map(([axis, value]) => `${axis}=${value === null ? 'off' : String(value)}`).join(' ') || 'base';
}

/** The plugin config of a setting: the base config with the axis values laid over it. */
export function configOf(base: Readonly<Record<string, unknown>>, setting: Setting): Record<string, unknown> {
  const config: Record<string, unknown> = { ...base };
  const baseLimits = base.limits;
  const limits: Record<string, unknown> =
    typeof baseLimits === 'object' && baseLimits !== null ? { ...(baseLimits as Record<string, unknown>) } : {};
  let touchedLimits = false;
  for (const [axis, value] of setting.values) {
    if (axis === 'cap') {
      for (const measure of ACTION_MEASURES) limits[measure] = value;
      touchedLimits = true;
    } else if (axis === 'hostCap') {
      limits.host = value;
      touchedLimits = true;
    } else if (axis === 'act') {
      limits.act = value;
      touchedLimits = true;
    } else if (axis === 'sequence') {
      config.sequence = sequenceOf(value);
    } else config[axis] = value;
  }
  if (touchedLimits) config.limits = limits;
  return config;
}

/** Why a valid config is still not worth replaying: a stage that could never fire, in order or at all. */
export function pointless(cfg: BreakerConfig): string | undefined {
  const caps = ACTION_MEASURES.map((measure) => cfg.limits[measure]).filter((cap): cap is number => typeof cap === 'number');
  const cap = caps.length > 0 ? Math.min(...caps) : undefined;
  if (cfg.warnAt !== null && cfg.summarizeAt !== null && cfg.warnAt >= cfg.summarizeAt)
    return 'warnAt >= summarizeAt: the warning would come after the summary';
  if (cap !== undefined && cfg.summarizeAt !== null && cfg.summarizeAt >= cap)
    return 'summarizeAt >= cap: the gate comes first, so the summary never fires';
  if (cap !== undefined && cfg.warnAt !== null && cfg.warnAt >= cap)
    return 'warnAt >= cap: the gate comes first, so the warning never fires';
  if (cfg.failWarnAt !== null && cfg.failLimit !== null && cfg.failWarnAt >= cfg.failLimit)
    return 'failWarnAt >= failLimit: the failure gate comes first';
  return undefined;
}

/**
 * Why a ceiling the grid sets could never apply: only an approved ask grants an
 * exemption, so without one its row would repeat the `off` row. A ceiling in
 * the base config is left alone: the grid is about other settings then.
 */
export function unreachedCeiling(setting: Setting, cfg: BreakerConfig, answer: Answer): string | undefined {
  if (!setting.values.some(([axis, value]) => axis === 'exemptionCeiling' && value !== null)) return undefined;
  if (cfg.onLimit === 'deny') return 'exemptionCeiling with onLimit deny: nothing is asked, so no exemption is granted';
  if (answer !== 'approve') return `exemptionCeiling with --answer ${answer}: no ask is approved, so no exemption is granted; use --answer approve`;
  return undefined;
}

export interface SweepOptions {
  readonly base?: Readonly<Record<string, unknown>>;
  readonly answer?: Answer;
  readonly labels?: ReadonlyMap<string, Label>;
  /** Called after each setting, for a progress line. */
  readonly onSetting?: (done: number, total: number) => void;
}

/** Replays every log under every setting. Logs are parsed once by the caller. */
export async function sweep(logs: readonly SessionLog[], settings: readonly Setting[], options: SweepOptions = {}): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  for (const [index, setting] of settings.entries()) {
    rows.push(await sweepOne(logs, setting, options));
    options.onSetting?.(index + 1, settings.length);
  }
  return rows;
}

async function sweepOne(logs: readonly SessionLog[], setting: Setting, options: SweepOptions): Promise<SweepRow> {
  const config = configOf(options.base ?? {}, setting);
  const head = { setting: settingLabel(setting), values: Object.fromEntries(setting.values) };
  const empty = { sessionsWarned: 0, sessionsGated: 0, messagesDelivered: 0, callsBlocked: 0 };
  let skipped: string | undefined;
  try {
    const cfg = resolveConfig(config);
    skipped = pointless(cfg) ?? unreachedCeiling(setting, cfg, options.answer ?? 'none');
  } catch (error) {
    skipped = (error as Error).message.replace(/^repeat-tool-breaker: /, '');
  }
  if (skipped !== undefined) return { ...head, skipped, ...empty };
  const reports: SessionReport[] = [];
  for (const log of logs) reports.push(await replaySession(log, { config, answer: options.answer ?? 'none' }));
  const touched = (report: SessionReport): boolean => advisoriesOf(report) > 0 || wasGated(report);
  const row: SweepRow = {
    ...head,
    sessionsWarned: reports.filter((report) => advisoriesOf(report) > 0).length,
    sessionsGated: reports.filter(wasGated).length,
    messagesDelivered: reports.reduce((sum, report) => sum + advisoriesOf(report), 0),
    callsBlocked: reports.reduce((sum, report) => sum + report.denied, 0),
  };
  const { labels } = options;
  if (labels === undefined) return row;
  const labelled = (label: Label): SessionReport[] => reports.filter((report) => labels.get(sessionName(report.path)) === label);
  return { ...row, goodTouched: labelled('good').filter(touched).length, stuckCaught: labelled('stuck').filter(wasGated).length };
}

/** Reads `labels.json`: `{ "<session>": "good" | "stuck" }`. Throws naming the bad entry. */
export function parseLabels(text: string, path: string): Map<string, Label> {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${path}: expected {"<session>": "good" | "stuck"}`);
  const labels = new Map<string, Label>();
  for (const [session, label] of Object.entries(parsed)) {
    if (label !== 'good' && label !== 'stuck')
      throw new Error(`${path}: ${JSON.stringify(session)} is labelled ${JSON.stringify(label)}; use "good" or "stuck"`);
    labels.set(session, label);
  }
  return labels;
}

function columnsFor(labelled: boolean): Column[] {
  const columns: Column[] = [
    { title: 'setting' },
    { title: 'sessions warned', right: true },
    { title: 'sessions gated', right: true },
    { title: 'messages delivered', right: true },
    { title: 'calls blocked', right: true },
  ];
  if (labelled) columns.push({ title: 'good touched', right: true }, { title: 'stuck caught', right: true });
  return columns;
}

function cellsOf(row: SweepRow, labelled: boolean, goods: number, stucks: number): Cell[] {
  if (row.skipped !== undefined) return [row.setting, 'skipped', '-', '-', '-', ...(labelled ? ['-', '-'] : [])];
  const cells: Cell[] = [row.setting, row.sessionsWarned, row.sessionsGated, row.messagesDelivered, row.callsBlocked];
  if (labelled) cells.push(`${row.goodTouched ?? 0}/${goods}`, `${row.stuckCaught ?? 0}/${stucks}`);
  return cells;
}

/** The sweep table, text or Markdown, then one line per skipped setting with its reason. */
export function sweepTable(
  rows: readonly SweepRow[],
  labels: ReadonlyMap<string, Label> | undefined,
  sessions: readonly string[],
  markdown = false,
): string {
  const labelled = labels !== undefined;
  const count = (label: Label): number => sessions.filter((session) => labels?.get(session) === label).length;
  const cells = rows.map((row) => cellsOf(row, labelled, count('good'), count('stuck')));
  const table = markdown ? renderMarkdown(columnsFor(labelled), cells) : renderTable(columnsFor(labelled), cells);
  const skipped = rows.filter((row) => row.skipped !== undefined).map((row) => `skipped ${row.setting}: ${row.skipped ?? ''}`);
  return [table, ...(skipped.length > 0 ? ['', ...skipped] : [])].join('\n');
}
