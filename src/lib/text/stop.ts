/**
 * The stop's texts (`stopAfter`): when the loop breaker ends a turn because
 * the model kept calling at a closed gate. One notice says it twice: its text
 * is the model's, read at the start of its next turn (and the operator's,
 * who expands the row), its summary the operator's row in the web UI, where
 * rc.8 shows nothing of a blocked turn otherwise. The terminal's line is in
 * terminal.ts. The model's text comes only as P15's quotation.
 */
import { hitQuote, quoted, type QuotedHit } from './message.js';

/** The notice text's protocol token. */
export const STOP_TOKEN = 'REPEAT_TOOL_STOPPED';

/** What the stop says of the loop it ended. */
export interface StopFacts {
  /** The tool of the call whose refusal reached the stop. */
  readonly name: string;
  /** Its first hit, as the texts quote it; `undefined` when it had none. */
  readonly hit: QuotedHit | undefined;
  /** The loop's refused calls this turn. */
  readonly knocks: number;
  readonly stopAfter: number;
}

/** The loop as the stop names it: the tool and what was refused, quoted (P15). */
export function stoppedLoop(facts: StopFacts): string {
  return facts.hit === undefined ? quoted(facts.name) : `${quoted(facts.name)}, ${hitQuote(facts.hit)}`;
}

/** The notice's text: what ended the turn and why, and what to do when the work goes on. */
export function stopText(facts: StopFacts): string {
  return [
    `${STOP_TOKEN}: the loop breaker ended the previous turn before its next step. ` +
      `The gate had blocked ${facts.knocks} calls of one loop in that turn (${stoppedLoop(facts)}), and the model kept making them; ` +
      `the setting stopAfter ends a turn at ${facts.stopAfter}. None of the blocked calls ran.`,
    'When the work goes on: do not make that call again. Use the results already in the conversation, take a different approach, or say what is blocking you.',
  ].join('\n');
}

/** The notice's summary, the operator's row: within P7's 120 characters, the quotation last. */
export function stopSummary(facts: StopFacts): string {
  const what = facts.hit === undefined ? quoted(facts.name) : hitQuote(facts.hit);
  return `turn ended after ${facts.knocks} refused calls: ${what}`;
}
