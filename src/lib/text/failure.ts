/**
 * A failure in words (the classifier is result/failure.ts): one line per
 * reason that names it and carries its detail, in English for the model's
 * texts and in Chinese for an operator's ask. One table, both languages side
 * by side, so a reason is never worded in one and forgotten in the other.
 */
import type { Locale } from './locale.js';

/** What the words need of a failure: its reason and its detail (model-controlled text). */
export interface FailureFacts {
  readonly reason: string;
  readonly detail: string;
}

/** A reason's line with its detail, and without one. */
type Said = readonly [(detail: string) => string, string];

const WORDS: Readonly<Record<string, Readonly<Record<Locale, Said>>>> = {
  exit: {
    en: [(d) => `the command exited with status ${d}`, 'the command exited with a non-zero status'],
    zh: [(d) => `命令以状态 ${d} 退出`, '命令以非零状态退出'],
  },
  http: {
    en: [(d) => `the server answered HTTP ${d}`, 'the server answered with an HTTP error status'],
    zh: [(d) => `服务器返回 HTTP ${d}`, '服务器返回了 HTTP 错误状态'],
  },
  timeout: {
    en: [(d) => `the call hit its timeout (${d})`, 'the call hit its timeout'],
    zh: [(d) => `调用超时（${d}）`, '调用超时'],
  },
  signal: {
    en: [(d) => `the process was stopped by signal ${d}`, 'the process was stopped by a signal'],
    zh: [(d) => `进程被信号 ${d} 终止`, '进程被信号终止'],
  },
  sandbox: {
    en: [(d) => `the sandbox refused it (${d} mode)`, 'the sandbox refused it'],
    zh: [(d) => `沙箱拒绝了它（${d} 模式）`, '沙箱拒绝了它'],
  },
  error: {
    en: [(d) => `the tool threw an error (${d})`, 'the tool threw an error'],
    zh: [(d) => `工具抛出错误（${d}）`, '工具抛出错误'],
  },
  exception: {
    en: [(d) => `the script died with an uncaught exception (${d})`, 'the script died with an uncaught exception'],
    zh: [(d) => `脚本因未捕获的异常而终止（${d}）`, '脚本因未捕获的异常而终止'],
  },
  curl: {
    en: [(d) => `curl gave up with error ${d}`, 'curl gave up with an error'],
    zh: [(d) => `curl 报错 ${d} 后放弃`, 'curl 报错后放弃'],
  },
  shell: {
    en: [(d) => `the persistent shell died under the command (${d})`, 'the persistent shell died under the command'],
    zh: [(d) => `持久 shell 在命令执行中退出（${d}）`, '持久 shell 在命令执行中退出'],
  },
};

/**
 * The same, in brief, for the operator's ask (text/ask.ts), where the panel's
 * sentence says the rest ("this command has failed 5 times in a row (exit
 * status 1)"). The reasons are the table's above.
 */
const BRIEF: Readonly<Record<string, Readonly<Record<Locale, Said>>>> = {
  exit: { en: [(d) => `exit status ${d}`, 'a non-zero exit status'], zh: [(d) => `退出状态 ${d}`, '非零退出状态'] },
  http: { en: [(d) => `HTTP ${d}`, 'an HTTP error status'], zh: [(d) => `HTTP ${d}`, 'HTTP 错误状态'] },
  timeout: { en: [(d) => `timed out after ${d}`, 'timed out'], zh: [(d) => `${d} 后超时`, '超时'] },
  signal: { en: [(d) => `stopped by signal ${d}`, 'stopped by a signal'], zh: [(d) => `被信号 ${d} 终止`, '被信号终止'] },
  sandbox: { en: [(d) => `refused by the sandbox, ${d} mode`, 'refused by the sandbox'], zh: [(d) => `沙箱拒绝，${d} 模式`, '沙箱拒绝'] },
  error: { en: [(d) => `error ${d}`, 'a tool error'], zh: [(d) => `错误 ${d}`, '工具出错'] },
  exception: { en: [(d) => `uncaught ${d}`, 'an uncaught exception'], zh: [(d) => `未捕获的异常 ${d}`, '未捕获的异常'] },
  curl: { en: [(d) => `curl error ${d}`, 'a curl error'], zh: [(d) => `curl 错误 ${d}`, 'curl 错误'] },
  shell: { en: [(d) => `the shell died, ${d}`, 'the shell died'], zh: [(d) => `shell 退出，${d}`, 'shell 退出'] },
};

/** A reason the table does not know. */
const UNKNOWN: Readonly<Record<Locale, string>> = { en: 'the call failed', zh: '调用失败' };

/** One line in words for a failure's reason, carrying its detail; `''` for no failure. */
export function describeFailure(failure: FailureFacts | null, locale: Locale = 'en'): string {
  if (failure === null) return '';
  // Model-controlled text: fold its whitespace so the sentence stays one clean line.
  const detail = failure.detail.replace(/\s+/g, ' ').trim();
  const said = Object.hasOwn(WORDS, failure.reason) ? (WORDS[failure.reason] as Readonly<Record<Locale, Said>>)[locale] : undefined;
  if (said === undefined) return UNKNOWN[locale];
  return detail ? said[0](detail) : said[1];
}

/** A failure in brief, for the operator's ask: `exit status 1`, `uncaught KeyError`; `''` for no failure. */
export function briefFailure(failure: FailureFacts | null, locale: Locale = 'en'): string {
  if (failure === null) return '';
  const detail = failure.detail.replace(/\s+/g, ' ').trim();
  const said = Object.hasOwn(BRIEF, failure.reason) ? (BRIEF[failure.reason] as Readonly<Record<Locale, Said>>)[locale] : undefined;
  if (said === undefined) return UNKNOWN[locale];
  return detail ? said[0](detail) : said[1];
}

/** `describeFailure` for an operator who reads Chinese (the ask in the approval panel); the model's texts keep the English one. */
export function describeFailureZh(failure: FailureFacts | null): string {
  return describeFailure(failure, 'zh');
}

