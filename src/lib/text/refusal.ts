/**
 * The refusals of a bad config that are no single track's own, as templates
 * in English and Chinese: the core settings', and the shapes every track of
 * one kind shares (`stagesShape`, `atLeast` …). A track's own refusals are in
 * its module (`meta.setting.messages`); config/messages.ts puts them all in
 * one dictionary and says a refusal in words.
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
import type { Locale, Params } from './locale.js';

/** Refusal templates by id, in one language. */
export type Templates = Readonly<Record<string, string>>;

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
  'meaning.stopAfter': 'how many refused calls of one loop end the turn; {off} turns the stop off',
  stagesShape: '`{key}` must be a mapping such as { warnAt: {warnAt}, limit: {limit} }, or {off} to leave the track off (got {got}); `{}` turns it on with the defaults',
  stagesKey: '`{key}.{sub}` is not a setting; the {key} track takes {takes}{near}',
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
} as const satisfies Templates;

/** The same refusals for an operator who reads Chinese; the words follow client/locales/glossary.md. */
const ZH: Readonly<Record<keyof typeof EN, string>> = {
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
  'meaning.stopAfter': '同一个循环的调用被拒绝多少次后结束本回合；填 {off} 表示从不结束',
  stagesShape: '`{key}` 必须是一个映射，例如 { warnAt: {warnAt}, limit: {limit} }，或填 {off} 保持该轨道关闭（实际为 {got}）；写 `{}` 即按默认值开启',
  stagesKey: '`{key}.{sub}` 不是一个设置项；{key} 轨道只接受 {takes}{near}',
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

/** The refusals that are no track's own, by language. */
export const CORE_REFUSALS: Readonly<Record<Locale, Templates>> = { en: EN, zh: ZH };

export type MessageParam = string | number | ConfigMessage;

/** One refusal: a template and what fills it (nested messages are rendered in the same language). */
export interface ConfigMessage {
  readonly id: string;
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
export type Translate = (id: string, params: Params) => string;

/** A message rendered through `translate`, its nested messages first, with `words` for the offered values. */
export function renderMessage(message: ConfigMessage, translate: Translate, words: OfferedWords): string {
  const params: Record<string, string | number> = { ...words };
  for (const [name, value] of Object.entries(message.params)) params[name] = typeof value === 'object' ? renderMessage(value, translate, words) : value;
  return translate(message.id, params);
}
