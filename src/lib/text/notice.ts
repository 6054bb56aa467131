/**
 * The notice: how an advisory reaches the model. It rides `additionalContexts`
 * stamped `source.kind: 'plugin'`; an unstamped context would render as a user
 * prompt in derived history. Frozen, as the host freezes messages.
 */
import { randomUUID } from 'node:crypto';
import type { Notice } from '../host/types.js';
import { own } from '../host/own.js';

export const PLUGIN_NAME = 'repeat-tool-breaker';

/** Longest fingerprint kept whole in a summary; the host caps summaries at 120 characters (P7). */
const LABEL_LIMIT = 96;

/** A fingerprint as a summary shows it: whole up to 96 characters, else 95 and `…`. */
export function summaryLabel(fp: string): string {
  return fp.length > LABEL_LIMIT ? `${fp.slice(0, LABEL_LIMIT - 1)}\u2026` : fp;
}

export function occurrenceSummary(fp: string, count: number): string {
  return `${summaryLabel(fp)} \u00d7 ${count}`;
}

export function failureSummary(fp: string, streak: number): string {
  return `${summaryLabel(fp)} failed x${streak}`;
}

export function staleSummary(fp: string, times: number): string {
  return `${summaryLabel(fp)} same result x${times}`;
}

/** A cycle's calls as a summary names them, shortened to fit like a fingerprint. */
export function cycleSummary(briefs: readonly string[], repetitions: number): string {
  return `${summaryLabel(`cycle ${briefs.join(' \u2192 ')}`)} \u00d7 ${repetitions}`;
}

/** The host keeps notices in history, so their texts are copied off the (possibly huge) fingerprint they quote. */
export function createNotice(text: string, summary: string): Notice {
  const content = Object.freeze([Object.freeze({ type: 'text' as const, text: own(text) })] as const);
  const source = Object.freeze({ kind: 'plugin' as const, plugin: PLUGIN_NAME, form: 'notice' as const, summary: own(summary) });
  return Object.freeze({ id: `${PLUGIN_NAME}-${randomUUID()}`, role: 'user' as const, content, source });
}
