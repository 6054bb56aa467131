/**
 * The sequence track's meta (the track: sequence.ts): the `sequence` setting,
 * written out (its check reads the window), with its refusals, schema node and
 * card fields in English and Chinese, and what the engine reads of the track
 * without running it.
 */
import { deepFreeze } from '../host/freeze.js';
import { isMapping } from '../host/member.js';
import { atLeast, near, refuse, shown } from '../setting/check.js';
import { count as whole, described, nullable, object } from '../setting/schema-node.js';
import { earlier, onBeatsOff, reader, type Setting } from '../setting/setting.js';
import type { CallTrackMeta } from './track.js';

/** The sequence track's settings. */
export interface SequenceConfig {
  /** Longest cycle looked for, in distinct calls (at least 2). */
  readonly length: number;
  /** Complete repetitions at which the advisory fires. */
  readonly count: number;
  /** Complete repetitions after which a call continuing the cycle meets the gate; `null`: advise only. */
  readonly limit: number | null;
}

/** What `sequence: {}` means: the values a partial `sequence` mapping is completed with. */
const DEFAULTS: SequenceConfig = deepFreeze({ length: 4, count: 3, limit: null });

/**
 * The track's settings, completed from DEFAULTS. Unlike the top level, an
 * unknown key here is an error: the mapping is new and small, so a misspelt
 * `lenght` is far likelier than a setting from another version. The track only
 * sees the window, so a stage it could never reach is refused too.
 */
function sequenceOf(value: unknown, window: number): SequenceConfig | null {
  if (value === null) return null;
  if (!isMapping(value)) {
    refuse('sequenceShape', { got: shown(value) });
  }
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(DEFAULTS, key)) {
      refuse('sequenceKey', { key, near: near('nearAside', key, Object.keys(DEFAULTS), (closest) => `sequence.${closest}`) });
    }
  }
  const given = { ...DEFAULTS, ...value };
  const length = atLeast(given.length, 'sequence.length', 2, 'meaning.sequence.length');
  const count = atLeast(given.count, 'sequence.count', 2, 'meaning.sequence.count');
  // Named for what sets its floor: `count` (the gate comes after the advisory), not a number from nowhere.
  if (given.limit !== null && (!Number.isInteger(given.limit) || (given.limit as number) < count)) refuse('sequenceLimit', { least: count, got: shown(given.limit) });
  const limit = given.limit as number | null;
  for (const [key, times] of [['count', count], ['limit', limit]] as const) {
    // Stryker disable next-line ConditionalExpression: a null limit times the length is 0, which no window is below
    if (times !== null && length * times > window) {
      refuse('sequenceWindow', { key, times, length, calls: length * times, window });
    }
  }
  return { length, count, limit };
}

/** What a cycle's notice and texts name it by: its track's name, as a fingerprint's names its measure. */
const SUMMARY = 'sequence';

/** The `sequence` setting: off by default; `{}` turns the track on with its defaults. */
export const SEQUENCE: Setting<SequenceConfig, 'sequence'> = {
  key: SUMMARY,
  order: 1,
  defaults: DEFAULTS,
  check: (value, core) => sequenceOf(value, core.window),
  messages: {
    en: {
      'meaning.sequence.length': 'the longest cycle looked for, in distinct calls',
      'meaning.sequence.count': 'how many back-to-back repetitions of a cycle earn the advisory',
      sequenceShape: '`sequence` must be a mapping such as { length: 4, count: 3, limit: null }, or {off} to leave the track off (got {got})',
      sequenceLimit: '`sequence.limit` must be an integer >= `sequence.count` ({least}) (got {got}): the gate comes after the advisory; {off} advises only',
      sequenceKey: '`sequence.{key}` is not a setting; the sequence track takes `length`, `count` and `limit`{near}',
      sequenceWindow:
        '`sequence.{key}` × `sequence.length` is {times} × {length} = {calls} calls, more than `window` ({window}) holds; ' +
        'raise `window` to at least {calls} or lower `sequence.{key}` or `sequence.length`',
    },
    zh: {
      'meaning.sequence.length': '要查找的最长循环节，按不同调用的个数计',
      'meaning.sequence.count': '一个循环节连续重复多少次才给出建议',
      sequenceShape: '`sequence` 必须是一个映射，例如 { length: 4, count: 3, limit: null }，或填 {off} 保持该轨道关闭（实际为 {got}）',
      sequenceLimit: '`sequence.limit` 必须是不小于 `sequence.count`（{least}）的整数（实际为 {got}）：闸门排在建议之后；填 {off} 表示只给建议',
      sequenceKey: '`sequence.{key}` 不是一个设置项；序列轨道只接受 `length`、`count` 和 `limit`{near}',
      sequenceWindow:
        '`sequence.{key}` × `sequence.length` 为 {times} × {length} = {calls} 次调用，超过了 `window`（{window}）能容纳的范围；' +
        '请把 `window` 调到至少 {calls}，或调低 `sequence.{key}` 或 `sequence.length`',
    },
  },
  schema: described(
    nullable(
      object({
        length: described(whole(2), 'Longest cycle looked for, in distinct calls.', DEFAULTS.length),
        count: described(whole(2), 'Back-to-back repetitions at which the advisory fires.', DEFAULTS.count),
        limit: described(nullable(whole(2)), 'Repetitions after which a call continuing the cycle meets the gate; null advises only.', DEFAULTS.limit),
      }),
    ),
    'The sequence track (opt-in): cycles of different calls repeated back to back; null leaves it off.',
    null,
  ),
  // The cycle that is caught soonest: the longest looked for, the fewest repetitions.
  stricter: onBeatsOff((a, b) => ({ length: Math.max(a.length, b.length), count: Math.min(a.count, b.count), limit: earlier(a.limit, b.limit) })),
  merged: true,
  card: {
    order: 6,
    fields: [
      {
        path: 'sequence',
        kind: { type: 'track' },
        copy: {
          en: { label: 'Sequence track', hint: 'Cycles of different calls repeated back to back (A, B, A, B, …).' },
          zh: { label: '序列轨道', hint: '由不同调用组成的循环节首尾相接地重复（A、B、A、B……）。' },
        },
      },
      {
        path: 'sequence.length',
        kind: { type: 'number' },
        copy: {
          en: { label: 'Longest cycle', hint: 'Distinct calls in the longest cycle looked for (at least 2).' },
          zh: { label: '最长循环节', hint: '要查找的最长循环节包含多少个不同的调用（至少 2）。' },
        },
      },
      {
        path: 'sequence.count',
        kind: { type: 'number' },
        copy: {
          en: { label: 'Advisory after', hint: 'Back-to-back repetitions of a cycle that earn the advisory.' },
          zh: { label: '建议阈值', hint: '一个循环节首尾相接地重复多少次时给出建议。' },
        },
      },
      {
        path: 'sequence.limit',
        kind: { type: 'number', nullWord: 'off' },
        copy: {
          en: { label: 'Gate after', hint: 'Repetitions after which the cycle meets the gate; off advises only.' },
          zh: { label: '闸门阈值', hint: '重复多少次之后，该循环节遇到闸门；off 表示只给建议。' },
        },
      },
    ],
  },
  of: reader<SequenceConfig>('sequence'),
};

export const sequenceMeta = {
  name: 'sequence',
  description: 'Cycles of different calls repeated back to back (A, B, A, B, …).',
  reads: 'calls',
  setting: SEQUENCE,
  isOn: (cfg) => SEQUENCE.of(cfg) !== null,
  needs: () => ({}),
  // What its notices' summaries name the cycle by: `sequence “curl → jq” × 3`.
  summary: SUMMARY,
} satisfies CallTrackMeta;
