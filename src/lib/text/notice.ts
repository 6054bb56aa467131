/**
 * The notice: how an advisory reaches the model. It rides `additionalContexts`
 * stamped `source.kind: 'plugin'`; an unstamped context would render as a user
 * prompt in derived history. Frozen, as the host freezes messages.
 */
import { randomUUID } from 'node:crypto';
import type { Notice } from '../host/types.js';
import { own } from '../host/own.js';
import { measureQuote, quoted } from './message.js';

export const PLUGIN_NAME = 'repeat-tool-breaker';

/**
 * A fingerprint as a summary shows it (P15, within P7's 120 characters): the
 * measure, then at most 60 characters of the rest as a quotation
 * (`cmd “true # retry …”`). The summary is the operator's row in the web UI,
 * and the rest is the model's text.
 */
export function summaryLabel(fp: string): string {
  return measureQuote(fp);
}

/** The summaries below take a mark's `label`, already made by `summaryLabel`. The repeat track's: `cmd “…” × 7`. */
export function repeatSummary(label: string, count: number): string {
  return `${label} \u00d7 ${count}`;
}

/** A streak's summary: what it is about, the track's summary word, how many (`cmd “cat /nope” failed x3`). */
export function countedSummary(label: string, word: string, count: number): string {
  return `${label} ${word} x${count}`;
}

/** A cycle's calls as a summary names them: its track's word (as a fingerprint's names its measure), one quotation, cut like a fingerprint's (`sequence “curl → jq” × 3`). */
export function cycleSummary(word: string, briefs: readonly string[], repetitions: number): string {
  return `${word} ${quoted(briefs.join(' \u2192 '))} \u00d7 ${repetitions}`;
}

/** The summary of a track with no measure to quote: its name, then what it saw (`spin: 5 calls in a row returned nothing new`). */
export function trackSummary(track: string, said: string): string {
  return `${track}: ${said}`;
}

/** The host keeps notices in history, so their texts are copied off the (possibly huge) fingerprint they quote. */
export function createNotice(text: string, summary: string): Notice {
  const content = Object.freeze([Object.freeze({ type: 'text' as const, text: own(text) })] as const);
  const source = Object.freeze({ kind: 'plugin' as const, plugin: PLUGIN_NAME, form: 'notice' as const, summary: own(summary) });
  return Object.freeze({ id: `${PLUGIN_NAME}-${randomUUID()}`, role: 'user' as const, content, source });
}
