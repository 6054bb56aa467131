/**
 * The refusals `resolveConfig` throws, as templates in English and Chinese.
 *
 * A refusal is data (`ConfigMessage`: a template id and its params, a param
 * being a value or another message) so that it can be said in the reader's
 * language: the load error a profile gets and the thrown message stay the
 * English text, byte for byte as before; the live settings service refuses a
 * `settings.update` in the operator's language (plugin/settings.ts), and the
 * card renders the same message in the language its page shows (client/).
 *
 * `{off}`, `{zeroOff}` and `{number}` are the words a message offers as a
 * value to type. YAML takes `null`; the card's controls take `off` (or
 * `unlimited`) and whole numbers for caps, so the card passes its own words
 * for these (client/wording.ts) and the rest of the message stays the
 * plugin's.
 */
import { fill, type Locale, type Params } from '../text/locale.js';

const EN = {
  notObject: 'the config must be an object (got {got}); give a mapping of settings or omit it',
  removed: '`{key}` was removed in 0.2.0; {hint}',
  'removed.denyAfter': 'use `limits.exact` instead (2 denies the second identical call)',
  'removed.warnAt': 'use `warnAt` for the advisory and `limits` for the denial',
  'removed.maxSamePath': 'there is no replacement: file actions are identified by position through `exact:`',
  'removed.readLike': 'there is no replacement: read-like tools are recognised from the tool name',
  jsLine:
    '`{key}` belongs to the shell-HTTP block of the JavaScript 0.6 line (got {got}), which this line (0.7, the TypeScript line from 0.5.2) does not carry; ' +
    'remove it: repeated fetches are caught by the loop tracks (the `net:`, `host:` and `exact:` caps), and lowering `limits.net` or `limits.host` stops them sooner',
  notMapping: '`{key}` must be a mapping (got {got}); its entries are merged over the defaults',
  notList: '`{key}` must be a list of tool names or `*` patterns (got {got})',
  unknownKey: '`{path}` is not a setting (got {got}). {near}Unknown keys are refused so that a misspelt setting is never silently ignored.',
  'unknownKey.near': 'Did you mean `{name}`? ',
  preset: '`preset` must be one of {names}, or null for none (got {got}){near}',
  /** The tail of a refusal that has a likely spelling to offer. */
  nearTail: '; did you mean `{name}`?',
  /** The same, in parentheses. */
  nearAside: ' (did you mean `{name}`?)',
  stageNumber: '`{key}` must be a whole number of calls, 1 or more; {zeroOff} turns the stage off (got {got})',
  stageWhole: '`{key}` must be a whole number of calls, 1 or more (got {got}); {zeroOff} turns the stage off',
  atLeast: '`{key}` must be an integer >= {least} (got {got}); it is {meaning}',
  'meaning.window': 'how many recent calls per agent are counted',
  'meaning.exemptionCeiling': 'how many calls an approved exemption allows; {off} leaves exemptions unlimited',
  'meaning.minChars': 'the shortest text block, in characters, that is fingerprinted',
  'meaning.threshold': 'how many occurrences within the window earn a notice (1 would flag every text)',
  'meaning.windowMs': 'the time window, in milliseconds, within which occurrences are counted',
  'meaning.cooldownMs': 'how long, in milliseconds, one text stays silent after its notice',
  'meaning.sequence.length': 'the longest cycle looked for, in distinct calls',
  'meaning.sequence.count': 'how many back-to-back repetitions of a cycle earn the advisory',
  'meaning.stale.warnAt': 'how many times in a row a call returns the same result before the advisory; {off} turns the advisory off',
  'meaning.stale.limit': 'how many times in a row a call may return the same result before the next one meets the gate; {off} advises only',
  'meaning.spin.warnAt': 'how many calls in a row may return nothing new before the advisory; {off} turns the advisory off',
  'meaning.spin.limit': 'how many calls in a row may return nothing new before the next repeat meets the gate; {off} advises only',
  'meaning.guess.warnAt': 'how many values tried in one place may fail the same way before the advisory; {off} turns the advisory off',
  'meaning.guess.limit': 'how many values tried in one place may fail the same way before the next guess meets the gate; {off} advises only',
  'meaning.editRetry.warnAt': 'how many edits of one file may be rejected in a row before the advisory; {off} turns the advisory off',
  'meaning.editRetry.limit': 'how many edits of one file may be rejected in a row before the next edit of it meets the gate; {off} advises only',
  'meaning.timeouts.warnAt': 'how many times one program may run out of time this turn before the advisory; {off} turns the advisory off',
  'meaning.timeouts.limit': 'how many times one program may run out of time this turn before its next run meets the gate; {off} advises only',
  duplicateTextShape:
    '`duplicateText` must be a mapping such as { minChars: 80, threshold: 3 }, or {off} to leave the track off (got {got}); `{}` turns it on with the defaults',
  duplicateTextKey: '`duplicateText.{key}` is not a setting; the settings are {names}{near}',
  sequenceShape: '`sequence` must be a mapping such as { length: 4, count: 3, limit: null }, or {off} to leave the track off (got {got})',
  sequenceLimit: '`sequence.limit` must be an integer >= `sequence.count` ({least}) (got {got}): the gate comes after the advisory; {off} advises only',
  sequenceKey: '`sequence.{key}` is not a setting; the sequence track takes `length`, `count` and `limit`{near}',
  sequenceWindow:
    '`sequence.{key}` × `sequence.length` is {times} × {length} = {calls} calls, more than `window` ({window}) holds; ' +
    'raise `window` to at least {calls} or lower `sequence.{key}` or `sequence.length`',
  stagesShape: '`{key}` must be a mapping such as { warnAt: {warnAt}, limit: {limit} }, or {off} to leave the track off (got {got}); `{}` turns it on with the defaults',
  stagesKey: '`{key}.{sub}` is not a setting; the {key} track takes `warnAt` and `limit`{near}',
  stagesOrder: '`{key}.warnAt` ({warnAt}) is past `{key}.limit` ({limit}): the gate would come first and the advisory never fire; lower warnAt to at most {limit}',
  localHostsAsk: '`localHosts: ask` was removed in 0.4.0; asking now covers every measure: set `onLimit: ask` and `localHosts: deny` or `allow`',
  localHosts: '`localHosts` must be `deny` or `allow` (got {got})',
  onLimit: '`onLimit` must be `ask` or `deny` (got {got})',
  includeLocal: '`includeLocal` must be true or false (got {got})',
  failLimit: '`failLimit` must be {number} >= 2, or {off} to turn the failure gate off (got {got})',
  previewChars: '`{key}` must be an integer >= 1 (got {got})',
  limitsMeasure: '`limits.{key}` names no measure (got {got}): a cap is a measure ({measures}) or a full fingerprint that starts with one, such as `verb:curl`{near}',
  limitsCap: '`limits.{key}` must be {number} >= 2, or {off} to stop counting it (got {got}); a cap below 2 would deny the first call',
  ignoreArgs: '`ignoreArgs.{key}` must be a list of argument names (got {got})',
  progress: '`progress` must be `ignore`, `results`, `changes` or `outcomes` (got {got})',
  failureProgress: '`failureProgress` must be `ignore`, `restart` or `outcomes` (got {got}); restart: a failure after a change to the files starts its streak again, and one with a new error holds it; outcomes: only a new error after a change starts it again',
} as const satisfies Readonly<Record<string, string>>;

export type ConfigMessageId = keyof typeof EN;

/** The same refusals for an operator who reads Chinese; the words follow client/locales/glossary.md. */
const ZH: Readonly<Record<ConfigMessageId, string>> = {
  notObject: '配置必须是一个映射（实际为 {got}）；请写成设置项的映射，或者整个省略',
  removed: '`{key}` 已在 0.2.0 中移除；{hint}',
  'removed.denyAfter': '请改用 `limits.exact`（设为 2 即拒绝第二次相同的调用）',
  'removed.warnAt': '建议请用 `warnAt`，拒绝请用 `limits`',
  'removed.maxSamePath': '没有替代项：文件操作由 `exact:` 按位置识别',
  'removed.readLike': '没有替代项：读取类工具由工具名识别',
  jsLine:
    '`{key}` 属于 JavaScript 0.6 版本线的 shell-HTTP 拦截（实际为 {got}），本版本线（0.7，从 0.5.2 移植的 TypeScript 版本线）不包含它；' +
    '请删除该键：重复的抓取由循环轨道捕获（`net:`、`host:` 和 `exact:` 的上限），调低 `limits.net` 或 `limits.host` 能更早拦下',
  notMapping: '`{key}` 必须是一个映射（实际为 {got}）；其中的条目会合并到默认值之上',
  notList: '`{key}` 必须是工具名或 `*` 通配模式的列表（实际为 {got}）',
  unknownKey: '`{path}` 不是一个设置项（实际为 {got}）。{near}未知的键会被拒绝，以免拼错的设置被悄悄忽略。',
  'unknownKey.near': '你是不是想写 `{name}`？',
  preset: '`preset` 必须是 {names} 之一，或 null 表示不用预设（实际为 {got}）{near}',
  nearTail: '；你是不是想写 `{name}`？',
  nearAside: '（你是不是想写 `{name}`？）',
  stageNumber: '`{key}` 必须是不小于 1 的整数次调用；填 {zeroOff} 关闭该阶段（实际为 {got}）',
  stageWhole: '`{key}` 必须是不小于 1 的整数次调用（实际为 {got}）；填 {zeroOff} 关闭该阶段',
  atLeast: '`{key}` 必须是不小于 {least} 的整数（实际为 {got}）；它表示{meaning}',
  'meaning.window': '每个 agent 计入多少次最近的调用',
  'meaning.exemptionCeiling': '一次批准的豁免允许多少次调用；填 {off} 表示豁免不限次数',
  'meaning.minChars': '要计算指纹的文本块至少多少个字符',
  'meaning.threshold': '窗口内出现多少次才发出通知（填 1 会让每段文本都被标记）',
  'meaning.windowMs': '统计出现次数的时间窗口，单位毫秒',
  'meaning.cooldownMs': '一段文本发出通知后保持安静多久，单位毫秒',
  'meaning.sequence.length': '要查找的最长循环节，按不同调用的个数计',
  'meaning.sequence.count': '一个循环节连续重复多少次才给出建议',
  'meaning.stale.warnAt': '同一调用连续多少次返回相同结果才给出建议；填 {off} 表示关闭建议',
  'meaning.stale.limit': '同一调用连续多少次返回相同结果之后，下一次这样的调用遇到闸门；填 {off} 表示只给建议',
  'meaning.spin.warnAt': '连续多少次调用没有返回新内容才给出建议；填 {off} 表示关闭建议',
  'meaning.spin.limit': '连续多少次调用没有返回新内容之后，下一次重复调用遇到闸门；填 {off} 表示只给建议',
  'meaning.guess.warnAt': '在同一位置试过多少个取值都以同样方式失败才给出建议；填 {off} 表示关闭建议',
  'meaning.guess.limit': '在同一位置试过多少个取值都以同样方式失败之后，下一次猜测遇到闸门；填 {off} 表示只给建议',
  'meaning.editRetry.warnAt': '同一文件的编辑连续被拒多少次才给出建议；填 {off} 表示关闭建议',
  'meaning.editRetry.limit': '同一文件的编辑连续被拒多少次之后，对它的下一次编辑遇到闸门；填 {off} 表示只给建议',
  'meaning.timeouts.warnAt': '同一程序在本回合超时多少次才给出建议；填 {off} 表示关闭建议',
  'meaning.timeouts.limit': '同一程序在本回合超时多少次之后，它的下一次运行遇到闸门；填 {off} 表示只给建议',
  duplicateTextShape:
    '`duplicateText` 必须是一个映射，例如 { minChars: 80, threshold: 3 }，或填 {off} 保持该轨道关闭（实际为 {got}）；写 `{}` 即按默认值开启',
  duplicateTextKey: '`duplicateText.{key}` 不是一个设置项；可用的设置项是 {names}{near}',
  sequenceShape: '`sequence` 必须是一个映射，例如 { length: 4, count: 3, limit: null }，或填 {off} 保持该轨道关闭（实际为 {got}）',
  sequenceLimit: '`sequence.limit` 必须是不小于 `sequence.count`（{least}）的整数（实际为 {got}）：闸门排在建议之后；填 {off} 表示只给建议',
  sequenceKey: '`sequence.{key}` 不是一个设置项；序列轨道只接受 `length`、`count` 和 `limit`{near}',
  sequenceWindow:
    '`sequence.{key}` × `sequence.length` 为 {times} × {length} = {calls} 次调用，超过了 `window`（{window}）能容纳的范围；' +
    '请把 `window` 调到至少 {calls}，或调低 `sequence.{key}` 或 `sequence.length`',
  stagesShape: '`{key}` 必须是一个映射，例如 { warnAt: {warnAt}, limit: {limit} }，或填 {off} 保持该轨道关闭（实际为 {got}）；写 `{}` 即按默认值开启',
  stagesKey: '`{key}.{sub}` 不是一个设置项；{key} 轨道只接受 `warnAt` 和 `limit`{near}',
  stagesOrder: '`{key}.warnAt`（{warnAt}）排在 `{key}.limit`（{limit}）之后：闸门会先到，建议永远不会发出；请把 warnAt 调到不超过 {limit}',
  localHostsAsk: '`localHosts: ask` 已在 0.4.0 中移除；询问现在适用于所有度量：请设置 `onLimit: ask`，并把 `localHosts` 设为 `deny` 或 `allow`',
  localHosts: '`localHosts` 必须是 `deny` 或 `allow`（实际为 {got}）',
  onLimit: '`onLimit` 必须是 `ask` 或 `deny`（实际为 {got}）',
  includeLocal: '`includeLocal` 必须是 true 或 false（实际为 {got}）',
  failLimit: '`failLimit` 必须是不小于 2 的{number}，或填 {off} 关闭失败闸门（实际为 {got}）',
  previewChars: '`{key}` 必须是不小于 1 的整数（实际为 {got}）',
  limitsMeasure: '`limits.{key}` 没有对应任何度量（实际为 {got}）：上限要写一个度量（{measures}），或以度量开头的完整指纹，例如 `verb:curl`{near}',
  limitsCap: '`limits.{key}` 必须是不小于 2 的{number}，或填 {off} 停止计数（实际为 {got}）；低于 2 的上限会拒绝第一次调用',
  ignoreArgs: '`ignoreArgs.{key}` 必须是参数名的列表（实际为 {got}）',
  progress: '`progress` 必须是 `ignore`、`results`、`changes` 或 `outcomes`（实际为 {got}）',
  failureProgress: '`failureProgress` 必须是 `ignore`、`restart` 或 `outcomes`（实际为 {got}）；restart：文件改动之后的失败让连续失败重新计起，出现新的错误则保持原有计数；outcomes：只有改动之后出现新的错误，连续失败才重新计起',
};

/** Every refusal template, by language. */
export const CONFIG_MESSAGES: Readonly<Record<Locale, Readonly<Record<ConfigMessageId, string>>>> = { en: EN, zh: ZH };

export type MessageParam = string | number | ConfigMessage;

/** One refusal: a template and what fills it (nested messages are rendered in the same language). */
export interface ConfigMessage {
  readonly id: ConfigMessageId;
  readonly params: Readonly<Record<string, MessageParam>>;
}

/** The words a refusal offers as a value to type (see the top of this file). */
export interface OfferedWords {
  readonly off: string;
  readonly zeroOff: string;
  readonly number: string;
}

/** What YAML takes, as each language says it. */
export const YAML_WORDS: Readonly<Record<Locale, OfferedWords>> = {
  en: { off: 'null', zeroOff: '0, a negative number or null', number: 'a number' },
  zh: { off: 'null', zeroOff: '0、负数或 null', number: '数字' },
};

/** Looks a template up and fills it: `fill` over a dictionary, or DSH's `t` in the browser. */
export type Translate = (id: ConfigMessageId, params: Params) => string;

/** A message rendered through `translate`, its nested messages first, with `words` for the offered values. */
export function renderMessage(message: ConfigMessage, translate: Translate, words: OfferedWords): string {
  const params: Record<string, string | number> = { ...words };
  for (const [name, value] of Object.entries(message.params)) params[name] = typeof value === 'object' ? renderMessage(value, translate, words) : value;
  return translate(message.id, params);
}

/** A message in one of the two languages, with the YAML words unless others are given. */
export function configText(message: ConfigMessage, locale: Locale = 'en', words: OfferedWords = YAML_WORDS[locale]): string {
  const templates = CONFIG_MESSAGES[locale];
  return renderMessage(message, (id, params) => fill(templates[id], params), words);
}

const PREFIX = 'repeat-tool-breaker: ';

/** What `resolveConfig` throws: the English text as its message (as ever), the refusal as data beside it. */
export class ConfigError extends Error {
  readonly refusal: ConfigMessage;

  constructor(refusal: ConfigMessage, locale: Locale = 'en') {
    super(PREFIX + configText(refusal, locale));
    this.refusal = refusal;
    // A refusal is the operator's to read, not a fault to trace: DSH prints a failed plugin as
    // `<entry>: <stack>`, so the stack is the message alone, on a line of its own that starts
    // `repeat-tool-breaker:` (rather than the 2nd line of ~36 with our frames in between).
    this.stack = `\n${this.message}`;
  }
}

/** The refusal a thrown value carries, when it is one of ours. */
export function refusalOf(error: unknown): ConfigMessage | undefined {
  return error instanceof ConfigError ? error.refusal : undefined;
}

/** A thrown config error as a reader of `locale` gets it: ours in that language (prefix kept), anything else as it is. */
export function inLocale(error: unknown, locale: Locale): unknown {
  const refusal = refusalOf(error);
  if (refusal === undefined || locale === 'en') return error;
  return new ConfigError(refusal, locale);
}
