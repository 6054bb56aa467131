/**
 * The operator's log: one line per gate and per advisory, for the host's
 * logger (plugin/log.ts). A line names the tool, the measure and the count;
 * the part a model wrote (a command, a URL, a path) is quoted and cut to 60
 * characters, so a line stays one short line whatever the call held.
 */
import type { Hit } from './message.js';

/** The most of a model's text a log line quotes, in characters. */
export const LOG_QUOTE_CHARS = 60;

/** The most hits a gate line lists; the rest are counted. */
const LISTED_HITS = 3;

/** C0 and C1 controls, DEL and the two Unicode line breaks: a log line is one plain line. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A model's text as a log line quotes it: at most 60 characters (then `…`), in double quotes, controls escaped. */
export function logQuote(text: string): string {
  const chars = Array.from(text);
  const head = chars.length > LOG_QUOTE_CHARS ? `${chars.slice(0, LOG_QUOTE_CHARS).join('')}\u2026` : text;
  const escaped = head
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `"${escaped}"`;
}

/** A fingerprint (or a summary's label) as measure and quoted rest: `exact "bash:{…}"`; a label with no measure is quoted whole. */
function measured(label: string): string {
  const colon = label.indexOf(':');
  const measure = colon > 0 ? label.slice(0, colon) : '';
  if (/^[a-z]+$/.test(measure)) return `${measure} ${logQuote(label.slice(colon + 1))}`;
  if (label.startsWith('cycle ')) return `cycle ${logQuote(label.slice('cycle '.length))}`;
  return logQuote(label);
}

/** The tool's name as a line shows it: a name is the model's text too. */
function tool(name: string): string {
  return /^[\w.-]{1,60}$/.test(name) ? name : logQuote(name);
}

/** The count at the end of a notice's summary (`× 7`, `failed x3`, `same result x3`, `timed out x3`, `rejected x3`). */
const SUMMARY_COUNT = / (\u00d7 \d+|(?:failed|same result|timed out|rejected) x\d+)$/;

/** An advisory, from the notice's summary (text/notice.ts): `advisory: exact "bash:{…}" × 7`. */
export function advisoryLine(summary: string): string {
  const count = SUMMARY_COUNT.exec(summary);
  if (count === null) return `advisory: ${logQuote(summary)}`;
  return `advisory: ${measured(summary.slice(0, count.index))} ${count[1] as string}`;
}

/** What the gate did with a call. */
export type GateOutcome = 'asked' | 'denied' | 'spent';

const OUTCOME: Readonly<Record<GateOutcome, string>> = {
  asked: 'asked the operator',
  denied: 'denied',
  spent: "denied, the operator's approval used up",
};

/** A gate: `gate, denied: bash, exact "bash:{…}" 12/12; net "example.com/x" 12/12`. */
export function gateLine(outcome: GateOutcome, name: string, hits: readonly Pick<Hit, 'quote' | 'count' | 'cap'>[]): string {
  const listed = hits.slice(0, LISTED_HITS).map((hit) => (outcome === 'spent' ? measured(hit.quote) : `${measured(hit.quote)} ${hit.count}/${hit.cap}`));
  const more = hits.length > LISTED_HITS ? `; ${hits.length - LISTED_HITS} more` : '';
  return `gate, ${OUTCOME[outcome]}: ${tool(name)}${listed.length > 0 ? `, ${listed.join('; ')}` : ''}${more}`;
}
