/**
 * The operator's log: one line per gate and per advisory, for the host's
 * logger (plugin/log.ts). A line names the tool, the measure and the count;
 * the part a model wrote (a command, a URL, a path, a tool's name) is quoted as
 * every operator's text quotes it (P15, text/message.ts): at most 60
 * characters inside “ ”, controls shown as escapes, so a line stays one short
 * plain line whatever the call held.
 */
import { hitQuote, quoted, type HitFacts, type QuotedHit } from './message.js';

/** The most hits a gate line lists; the rest are counted. */
const LISTED_HITS = 3;

/** The tool's name as a line shows it: a name is the model's text too. */
function tool(name: string): string {
  return /^[\w.-]{1,60}$/.test(name) ? name : quoted(name);
}

/** An advisory, from the notice's summary (text/notice.ts), which P15 already bounds and quotes: `advisory: cmd “echo:echo hi” × 7`. */
export function advisoryLine(summary: string): string {
  return `advisory: ${summary}`;
}

/** What the gate did with a call. */
export type GateOutcome = 'asked' | 'denied' | 'ceiling';

const OUTCOME: Readonly<Record<GateOutcome, string>> = {
  asked: 'asked the operator',
  denied: 'denied',
  ceiling: "denied, the operator's approval used up",
};

/** A hit as a gate line lists it: its quotation, and its count against its cap. */
export type LineHit = QuotedHit & Pick<HitFacts, 'count' | 'cap'>;

/** A gate: `gate, denied: bash, exact “bash:{…}” 12/12; net “example.com/x” 12/12`. */
export function gateLine(outcome: GateOutcome, name: string, hits: readonly LineHit[]): string {
  return gateWords(OUTCOME[outcome], name, hits, outcome !== 'ceiling');
}

/** A gate line with its own words for what the gate did (`what`); `counted`: each hit with its count and cap. */
export function gateWords(what: string, name: string, hits: readonly LineHit[], counted: boolean): string {
  const listed = hits.slice(0, LISTED_HITS).map((hit) => (counted ? `${hitQuote(hit)} ${hit.count}/${hit.cap}` : hitQuote(hit)));
  const more = hits.length > LISTED_HITS ? `; ${hits.length - LISTED_HITS} more` : '';
  return `gate, ${what}: ${tool(name)}${listed.length > 0 ? `, ${listed.join('; ')}` : ''}${more}`;
}
