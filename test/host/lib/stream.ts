/**
 * What the mock model says, as a real provider streams it: the deltas of one
 * OpenAI-compatible chat-completions answer. A tool step streams reasoning
 * (DeepSeek's `reasoning_content`), sometimes a line of text, then each call
 * of the step — several calls in one answer are parallel tool calls — with
 * its arguments cut into pieces at seeded random points; a final answer
 * streams reasoning and text. Real providers cut arguments anywhere, so the
 * host (and every log reader after it) must join them; DSH 0.1.0-rc.8 packs
 * three or more consecutive pieces into one `tool-call-chunks` log row.
 *
 * Pure and deterministic: the same seed and step always give the same deltas,
 * so an adapter retry of one request is answered identically.
 */
import { deriveSeed, Rng } from '../../support/prng.js';

export interface ScriptedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** One model step: a call, or several calls in one answer (DSH runs parallel-safe ones as a pool). */
export type ScriptedStep = ScriptedCall | readonly ScriptedCall[];

export interface Streaming {
  /** The PRNG seed; each step draws from its own seed derived from this one. */
  readonly seed: number;
  /** How many pieces each call's arguments are cut into, inclusive (default `[2, 6]`). */
  readonly pieces?: readonly [number, number];
  /** Stream reasoning deltas before every answer (default true). */
  readonly reasoning?: boolean;
}

/** One SSE data payload's choice: a delta and, on the last one, the finish reason. */
export interface Delta {
  readonly delta: Record<string, unknown>;
  readonly finishReason: string | null;
}

export const DEFAULT_STREAMING: Streaming = { seed: 1 };

export function callsOf(step: ScriptedStep): readonly ScriptedCall[] {
  return Array.isArray(step) ? (step as readonly ScriptedCall[]) : [step as ScriptedCall];
}

/** `text` cut into `count` non-empty pieces at random points (fewer when the text is shorter). */
export function cut(text: string, count: number, rng: Rng): string[] {
  const pieces = Math.max(1, Math.min(count, text.length));
  const points = new Set<number>();
  while (points.size < pieces - 1) points.add(rng.int(1, text.length - 1));
  const sorted = [0, ...[...points].sort((a, b) => a - b), text.length];
  return sorted.slice(1).map((end, at) => text.slice(sorted[at], end));
}

function reasoningDeltas(text: string, rng: Rng, streaming: Streaming): Delta[] {
  if (streaming.reasoning === false) return [];
  return cut(text, rng.int(2, 4), rng).map((piece) => ({ delta: { reasoning_content: piece }, finishReason: null }));
}

function withRole(deltas: Delta[]): Delta[] {
  const [first, ...rest] = deltas;
  return first === undefined ? deltas : [{ delta: { role: 'assistant', ...first.delta }, finishReason: first.finishReason }, ...rest];
}

/** The call id the mock gives call `at` of step `step`. */
export function callId(step: number, at: number): string {
  return `call_mock_${step}_${at}`;
}

/** The deltas of a tool step: reasoning, maybe a line of text, then each call with its arguments in pieces. */
export function toolStepDeltas(step: ScriptedStep, index: number, streaming: Streaming = DEFAULT_STREAMING): Delta[] {
  const rng = new Rng(deriveSeed(streaming.seed, index));
  const calls = callsOf(step);
  const [fewest, most] = streaming.pieces ?? [2, 6];
  const deltas: Delta[] = reasoningDeltas(`Step ${index + 1} of the script: ${calls.map((c) => c.name).join(', ')}.`, rng, streaming);
  if (rng.chance(0.3)) {
    for (const piece of cut('Checking once more.', rng.int(1, 3), rng)) deltas.push({ delta: { content: piece }, finishReason: null });
  }
  calls.forEach((call, at) => {
    const pieces = cut(JSON.stringify(call.arguments), rng.int(fewest, most), rng);
    // Some providers open a call with empty arguments, others with the first piece.
    const opening = rng.chance(0.5) ? '' : (pieces.shift() ?? '');
    const head = { index: at, id: callId(index, at), type: 'function', function: { name: call.name, arguments: opening } };
    deltas.push({ delta: { tool_calls: [head] }, finishReason: null });
    for (const piece of pieces) deltas.push({ delta: { tool_calls: [{ index: at, function: { arguments: piece } }] }, finishReason: null });
  });
  deltas.push({ delta: {}, finishReason: 'tool_calls' });
  return withRole(deltas);
}

/** The deltas of a text answer: reasoning, then the text in pieces. */
export function textDeltas(text: string, index: number, streaming: Streaming = DEFAULT_STREAMING): Delta[] {
  const rng = new Rng(deriveSeed(streaming.seed, index));
  const deltas: Delta[] = reasoningDeltas('The script is done; answer briefly.', rng, streaming);
  for (const piece of cut(text, rng.int(2, 4), rng)) deltas.push({ delta: { content: piece }, finishReason: null });
  deltas.push({ delta: {}, finishReason: 'stop' });
  return withRole(deltas);
}
