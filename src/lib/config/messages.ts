/**
 * Every refusal `resolveConfig` can throw, in one dictionary per language:
 * the ones that are no track's own (text/refusal.ts) and each track's
 * (`meta.setting.messages`). A check refuses with data (setting/check.ts
 * `Refusal`); here a refusal is said in words: the load error a profile gets
 * and the thrown message are the English text, the live settings service
 * refuses a `settings.update` in the operator's language (plugin/settings.ts),
 * and the card renders the same message in its page's language (client/).
 */
import { Refusal } from '../setting/check.js';
import { fill, type Locale } from '../text/locale.js';
import { CORE_REFUSALS, renderMessage, YAML_WORDS, type ConfigMessage, type OfferedWords, type Templates } from '../text/refusal.js';
import { SETTINGS } from '../tracks/meta.js';

/** A refusal's template id. */
export type ConfigMessageId = string;

function dictionary(locale: Locale): Templates {
  const templates: Record<string, string> = { ...CORE_REFUSALS[locale] };
  for (const setting of SETTINGS) Object.assign(templates, setting.messages[locale]);
  return templates;
}

/** Every refusal template, by language. */
export const CONFIG_MESSAGES: Readonly<Record<Locale, Templates>> = { en: dictionary('en'), zh: dictionary('zh') };

/** A message in one of the two languages, with the YAML words unless others are given. */
export function configText(message: ConfigMessage, locale: Locale = 'en', words: OfferedWords = YAML_WORDS[locale]): string {
  const templates = CONFIG_MESSAGES[locale];
  return renderMessage(message, (id, params) => fill(templates[id] as string, params), words);
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

/** `error` as a caller of `resolveConfig` gets it: a check's refusal said in words, anything else as it is. */
export function asConfigError(error: unknown): unknown {
  return error instanceof Refusal ? new ConfigError(error.refusal) : error;
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
