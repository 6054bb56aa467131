/**
 * The duplicated-context track's meta (the track: duplicate-text.ts): the
 * `duplicateText` setting, written out, with its refusals, schema node and
 * card fields in English and Chinese, and what the engine reads of the track
 * without running it.
 */
import { isMapping } from '../host/member.js';
import { atLeast, near, refuse, shown } from '../setting/check.js';
import { count, described, nullable, object } from '../setting/schema-node.js';
import { onBeatsOff, reader, type Setting } from '../setting/setting.js';
import type { MessageTrackMeta } from './track.js';

/** What its notices' summaries say, and its name: `duplicated context × 3: “…”`. */
const SUMMARY = 'duplicated context';

/** The track's settings. */
export interface DuplicateTextConfig {
  /** Shortest text block (after normalising line ends and trailing spaces) that is fingerprinted. */
  readonly minChars: number;
  /** Occurrences within `windowMs` that earn a notice. */
  readonly threshold: number;
  readonly windowMs: number;
  /** Silence for one text after its notice. */
  readonly cooldownMs: number;
}

/** What `duplicateText: {}` turns on; each sub-key may be given alone. */
export const DUPLICATE_TEXT_DEFAULTS: DuplicateTextConfig = Object.freeze({
  minChars: 80,
  threshold: 3,
  windowMs: 120_000,
  cooldownMs: 30_000,
});

/** The lowest value each setting accepts, and what it means (a template id). */
const FLOORS: Readonly<Record<keyof DuplicateTextConfig, readonly [number, string]>> = {
  minChars: [1, 'meaning.minChars'],
  threshold: [2, 'meaning.threshold'],
  windowMs: [1, 'meaning.windowMs'],
  cooldownMs: [0, 'meaning.cooldownMs'],
};

/** `null` or absent: off. A mapping: on, its sub-keys laid over DUPLICATE_TEXT_DEFAULTS. */
function duplicateTextOf(value: unknown): DuplicateTextConfig | null {
  if (value === null || value === undefined) return null;
  if (!isMapping(value)) {
    refuse('duplicateTextShape', { got: shown(value) });
  }
  const known = Object.keys(FLOORS);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(FLOORS, key)) {
      refuse('duplicateTextKey', { key, names: known.map((k) => `\`${k}\``).join(', '), near: near('nearAside', key, known, (closest) => `duplicateText.${closest}`) });
    }
  }
  const merged: Record<string, unknown> = { ...DUPLICATE_TEXT_DEFAULTS, ...value };
  for (const [key, [floor, meaning]] of Object.entries(FLOORS)) {
    const setting = merged[key];
    atLeast(setting, `duplicateText.${key}`, floor, meaning);
  }
  return Object.freeze(merged as unknown as DuplicateTextConfig);
}

/** The `duplicateText` setting: off by default; `{}` turns the track on with its defaults. */
export const DUPLICATE_TEXT: Setting<DuplicateTextConfig, 'duplicateText'> = {
  key: 'duplicateText',
  order: 4,
  defaults: DUPLICATE_TEXT_DEFAULTS,
  check: (value) => duplicateTextOf(value),
  messages: {
    en: {
      'meaning.minChars': 'the shortest text block, in characters, that is fingerprinted',
      'meaning.threshold': 'how many occurrences within the window earn a notice (1 would flag every text)',
      'meaning.windowMs': 'the time window, in milliseconds, within which occurrences are counted',
      'meaning.cooldownMs': 'how long, in milliseconds, one text stays silent after its notice',
      duplicateTextShape:
        '`duplicateText` must be a mapping such as { minChars: 80, threshold: 3 }, or {off} to leave the track off (got {got}); `{}` turns it on with the defaults',
      duplicateTextKey: '`duplicateText.{key}` is not a setting; the settings are {names}{near}',
    },
    zh: {
      'meaning.minChars': '要计算指纹的文本块至少多少个字符',
      'meaning.threshold': '窗口内出现多少次才发出通知（填 1 会让每段文本都被标记）',
      'meaning.windowMs': '统计出现次数的时间窗口，单位毫秒',
      'meaning.cooldownMs': '一段文本发出通知后保持安静多久，单位毫秒',
      duplicateTextShape:
        '`duplicateText` 必须是一个映射，例如 { minChars: 80, threshold: 3 }，或填 {off} 保持该轨道关闭（实际为 {got}）；写 `{}` 即按默认值开启',
      duplicateTextKey: '`duplicateText.{key}` 不是一个设置项；可用的设置项是 {names}{near}',
    },
  },
  schema: described(
    nullable(
      object({
        minChars: described(count(1), 'Shortest text block that is fingerprinted.', DUPLICATE_TEXT_DEFAULTS.minChars),
        threshold: described(count(2), 'Occurrences within the window that earn a notice.', DUPLICATE_TEXT_DEFAULTS.threshold),
        windowMs: described(count(1), 'Time window, in milliseconds, within which occurrences are counted.', DUPLICATE_TEXT_DEFAULTS.windowMs),
        cooldownMs: described(count(0), 'Silence for one text after its notice, in milliseconds.', DUPLICATE_TEXT_DEFAULTS.cooldownMs),
      }),
    ),
    'The duplicated-context track (opt-in); null leaves it off.',
    null,
  ),
  // The text that is flagged soonest and longest.
  stricter: onBeatsOff((a, b) => ({
    minChars: Math.min(a.minChars, b.minChars),
    threshold: Math.min(a.threshold, b.threshold),
    windowMs: Math.max(a.windowMs, b.windowMs),
    cooldownMs: Math.min(a.cooldownMs, b.cooldownMs),
  })),
  merged: true,
  card: {
    order: 7,
    fields: [
      {
        path: 'duplicateText',
        kind: { type: 'track' },
        copy: {
          en: { label: 'Duplicated context track', hint: 'The same large text block injected into the context again and again.' },
          zh: { label: '重复上下文轨道', hint: '同一大段文本被一再注入上下文。' },
        },
      },
      {
        path: 'duplicateText.minChars',
        kind: { type: 'number' },
        copy: {
          en: { label: 'Shortest block', hint: 'Characters a text block needs to be fingerprinted.' },
          zh: { label: '最短文本块', hint: '文本块至少要有多少个字符才计算指纹。' },
        },
      },
      {
        path: 'duplicateText.threshold',
        kind: { type: 'number' },
        copy: {
          en: { label: 'Notice at', hint: 'Occurrences within the window that earn a notice (at least 2).' },
          zh: { label: '通知阈值', hint: '窗口内出现多少次时发出通知（至少 2）。' },
        },
      },
      {
        path: 'duplicateText.windowMs',
        kind: { type: 'number' },
        copy: {
          en: { label: 'Window (ms)', hint: 'Time within which occurrences are counted.' },
          zh: { label: '窗口（毫秒）', hint: '统计出现次数的时间范围。' },
        },
      },
      {
        path: 'duplicateText.cooldownMs',
        kind: { type: 'number' },
        copy: {
          en: { label: 'Cooldown (ms)', hint: 'Silence for one text after its notice.' },
          zh: { label: '冷却（毫秒）', hint: '一段文本发出通知后保持安静的时长。' },
        },
      },
    ],
  },
  of: reader<DuplicateTextConfig>('duplicateText'),
};

export const duplicateTextMeta = {
  name: SUMMARY,
  description: 'The same large text entering one agent\'s conversation again and again.',
  reads: 'messages',
  setting: DUPLICATE_TEXT,
  isOn: (cfg) => DUPLICATE_TEXT.of(cfg) !== null,
  summary: SUMMARY,
} satisfies MessageTrackMeta;
