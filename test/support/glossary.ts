/**
 * The glossary of the product's Chinese words (client/locales/glossary.md),
 * read from its table, and the Chinese texts of the project it governs, each
 * beside its English where it has one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DICTIONARIES, type Key } from '../../client/i18n.js';
import { CONFIG_MESSAGES } from '../../src/lib/config/messages.js';
import { askMessage } from '../../src/lib/text/ask.js';
import type { HitFacts, HitWords } from '../../src/lib/text/message.js';
import { CALL_TRACKS } from '../../src/lib/tracks/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const GLOSSARY = join(ROOT, 'client/locales/glossary.md');

export interface Term {
  readonly english: string;
  readonly chinese: string;
  /** Words no Chinese text may use for it. */
  readonly avoid: readonly string[];
  /** Where an English text says the term (case-insensitive); undefined: no paired check. */
  readonly pattern: RegExp | undefined;
}

function cells(line: string): string[] {
  return line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((cell) => cell.trim());
}

function unquote(cell: string): string {
  return cell.replace(/^`+\s?/, '').replace(/\s?`+$/, '');
}

/** The rows of the glossary's table. */
export function readGlossary(text = readFileSync(GLOSSARY, 'utf8')): Term[] {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| English |'));
  if (header < 0) throw new Error('glossary.md has no table headed "| English |"');
  const terms: Term[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [english = '', chinese = '', , avoid = '', pattern = ''] = cells(line);
    terms.push({
      english,
      chinese,
      avoid: avoid === '—' ? [] : avoid.split(/,\s*/).filter((word) => word !== ''),
      pattern: pattern === '—' || pattern === '' ? undefined : new RegExp(unquote(pattern), 'i'),
    });
  }
  return terms;
}

/** One text in both languages: a dictionary key, or a part of the ask. */
export interface Pair {
  readonly where: string;
  readonly en: string;
  readonly zh: string;
}

const hit = (words: HitWords, count: number, cap: number, failure: HitFacts['failure'], quote = 'exact:bash:{"command":"make test"}'): HitFacts => ({
  words,
  quote,
  count,
  cap,
  detail: failure === undefined || failure === null ? '' : `the command exited with status ${failure.detail}`,
  failure,
});

/** The measures a hit can be about, each named its own way in the ask (text/ask.ts). */
const QUOTES = ['exact:bash:{"command":"make test"}', 'cmd:make:make test', 'host:api.example.com', 'site:example.com', 'net:example.com/x', 'sink:out.txt', 'verb:curl', 'family:http-fetch'];

/** Whole asks in both languages, for every track alone and after another, with and without a ceiling, and about every measure. */
export function askPairs(): Pair[] {
  const pairs: Pair[] = [];
  const bash = { name: 'bash', shell: true };
  const read = { name: 'read', shell: false };
  const other = CALL_TRACKS[0]?.words as HitWords;
  for (const { words } of CALL_TRACKS) {
    const one = hit(words, 4, 4, { reason: 'exit', detail: '2' });
    for (const ceiling of [null, 1, 3]) {
      const hits = [hit(other, 5, 5, null), one];
      pairs.push({ where: `${words.track}: ask after another track, ceiling ${ceiling}`, en: askMessage(bash, hits, ceiling), zh: askMessage(bash, hits, ceiling, 'zh') });
      pairs.push({ where: `${words.track}: ask of one, ceiling ${ceiling}`, en: askMessage(bash, [one], ceiling), zh: askMessage(bash, [one], ceiling, 'zh') });
    }
    for (const quote of QUOTES) {
      const about = [hit(words, 4, 4, { reason: 'exception', detail: 'KeyError' }, quote)];
      for (const call of [bash, read]) pairs.push({ where: `${words.track}: ask about ${quote} of ${call.name}`, en: askMessage(call, about), zh: askMessage(call, about, null, 'zh') });
    }
  }
  pairs.push({ where: 'ask without hits', en: askMessage(bash, []), zh: askMessage(bash, [], null, 'zh') });
  return pairs;
}

/** Every dictionary entry (the card's own words and each track's fields) and every part of the ask, English beside Chinese. */
export function allPairs(): Pair[] {
  const words = Object.keys(DICTIONARIES.en).filter((key) => !key.startsWith('config.')) as Key[];
  const card = words.map((key) => ({ where: `card ${key}`, en: DICTIONARIES.en[key] as string, zh: DICTIONARIES.zh[key] as string }));
  const refusals = Object.keys(CONFIG_MESSAGES.en).map((id) => ({
    where: `refusal ${id}`,
    en: CONFIG_MESSAGES.en[id] as string,
    zh: CONFIG_MESSAGES.zh[id] as string,
  }));
  return [...card, ...refusals, ...askPairs()];
}

export const README_ZH = join(ROOT, 'README.zh.md');

/** README.zh.md without its code (blocks and spans): the prose the glossary governs. */
export function readmeProse(): string {
  if (!existsSync(README_ZH)) return '';
  return readFileSync(README_ZH, 'utf8')
    .replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
    .replace(/`[^`\n]*`/g, '');
}
