/**
 * The card's two dictionaries, as DSH's locale service takes them: the card's
 * own words (locales/en.ts, locales/zh.ts), each track's fields
 * (`meta.setting.card`, under `field.`) and `resolveConfig`'s refusals
 * (src/lib/config/messages.ts) under `config.`, in one namespace named after
 * the settings namespace. Where the page has the locale service the card
 * registers them there and translates through its `bind` (index.tsx); without
 * it, `translator` fills the English ones the same way, so the card reads as
 * it always did.
 */
import { CONFIG_MESSAGES, type ConfigMessageId } from '../src/lib/config/messages.js';
import { fill, type Locale, type Params } from '../src/lib/text/locale.js';
import { SETTINGS } from '../src/lib/tracks/meta.js';
import { EN, type CardKey } from './locales/en.js';
import { ZH } from './locales/zh.js';

/** A key of the registered namespace: the card's, a track's field (`field.stale.label`), or a refusal's under `config.`. */
export type Key = CardKey | `field.${string}.${'label' | 'hint'}` | `config.${ConfigMessageId}`;

/** DSH's translate function for one namespace (`ctx.locale.bind(ns)`), typed to our keys. */
export type Translate = (key: Key, params?: Params) => string;

/** Each track's fields, in `locale`, under the keys the card's own fields have (`field.<path>.label`, `.hint`). */
function trackFields(locale: Locale): Record<string, string> {
  const words: Record<string, string> = {};
  for (const setting of SETTINGS) {
    for (const { path, copy } of setting.card.fields) {
      words[`field.${path}.label`] = copy[locale].label;
      words[`field.${path}.hint`] = copy[locale].hint;
    }
  }
  return words;
}

function withRefusals(card: Readonly<Record<CardKey, string>>, locale: Locale): Readonly<Record<Key, string>> {
  const refusals = Object.fromEntries(Object.entries(CONFIG_MESSAGES[locale]).map(([id, text]) => [`config.${id}`, text]));
  return { ...card, ...trackFields(locale), ...refusals } as Record<Key, string>;
}

/** What the card registers with DSH's locale service, by locale id. */
export const DICTIONARIES: Readonly<Record<Locale, Readonly<Record<Key, string>>>> = {
  en: withRefusals(EN, 'en'),
  zh: withRefusals(ZH, 'zh'),
};

/** A translate function over our own dictionaries: the card without the locale service, and the unit tests. */
export function translator(locale: Locale): Translate {
  const dictionary = DICTIONARIES[locale];
  // Missing keys fall back to English, then to the key itself, as DSH's lookup does.
  return (key, params) => fill(dictionary[key] ?? DICTIONARIES.en[key] ?? key, params);
}
