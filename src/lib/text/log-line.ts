/**
 * The operator's log: one line per gate and per advisory, for the host's
 * logger (plugin/log.ts) and the terminal (text/terminal.ts). It is where a
 * curious operator finds what the approval panel leaves out: a gate line names
 * the tool, then each track that hit with its measures and their counts;
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

/** What a gate line says the gate did (the replay reads them back). */
export const GATE_OUTCOMES: Readonly<Record<GateOutcome, string>> = {
  asked: 'asked the operator',
  denied: 'denied',
  ceiling: 'denied at the exemption ceiling',
};

/** A hit as a gate line lists it: its quotation, and its count against its cap. */
export type LineHit = QuotedHit & Pick<HitFacts, 'count' | 'cap'>;

/** A gate: `gate, denied: bash, repeat: exact “bash:{…}” 12/12, net “example.com/x” 12/12; failure: cmd “curl:curl …” 5/5`. */
export function gateLine(outcome: GateOutcome, name: string, hits: readonly LineHit[]): string {
  return gateWords(GATE_OUTCOMES[outcome], name, hits, outcome !== 'ceiling');
}

/**
 * A gate line with its own words for what the gate did (`what`); `counted`:
 * each hit with its count and cap. Hits come in gate order, a track's
 * together, each track's under its name (a hit the line cannot place, at the
 * exemption ceiling, stands alone).
 */
export function gateWords(what: string, name: string, hits: readonly LineHit[], counted: boolean): string {
  const groups: { track: string | undefined; said: string[] }[] = [];
  for (const hit of hits.slice(0, LISTED_HITS)) {
    const track = hit.words?.track;
    const quote = hitQuote(hit);
    // A cycle is quoted under its track's own name (`sequence “a → b”`): under that name once is enough.
    const shown = track !== undefined && hit.words?.measure === track ? quote.slice(track.length + 1) : quote;
    const said = counted ? `${shown} ${hit.count}/${hit.cap}` : shown;
    const last = groups[groups.length - 1];
    if (track !== undefined && last?.track === track) last.said.push(said);
    else groups.push({ track, said: [said] });
  }
  const listed = groups.map((group) => (group.track === undefined ? group.said.join('; ') : `${group.track}: ${group.said.join(', ')}`));
  const more = hits.length > LISTED_HITS ? `; ${hits.length - LISTED_HITS} more` : '';
  return `gate, ${what}: ${tool(name)}${listed.length > 0 ? `, ${listed.join('; ')}` : ''}${more}`;
}
