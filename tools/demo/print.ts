/**
 * How `npm run demo` prints: colours (only on a terminal, and never with
 * NO_COLOR), long texts wrapped and clipped, notices and scene headings.
 */
import type { HostResult } from '../../test/support/fake-host.js';

const colour = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const paint = (code: string) => (text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
export const bold = paint('1');
export const dim = paint('2');
export const red = paint('31');
export const green = paint('32');
export const yellow = paint('33');
export const cyan = paint('36');

/** Keep long texts readable: wrapped at `width`, at most `lines` lines. */
export function clip(text: string, lines = 12, width = 100): string {
  const wrapped: string[] = [];
  for (const line of text.split('\n')) {
    let rest = line;
    while (rest.length > width) {
      const cut = rest.lastIndexOf(' ', width) > 20 ? rest.lastIndexOf(' ', width) : width;
      wrapped.push(rest.slice(0, cut));
      rest = `  ${rest.slice(cut).trimStart()}`;
    }
    wrapped.push(rest);
  }
  const kept = wrapped.slice(0, lines);
  if (wrapped.length > lines) kept.push(`… (${wrapped.length - lines} more lines)`);
  return kept.join('\n');
}

export function firstLine(text: string, width = 84): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

export function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

/** The text the model reads in a result. */
export function textOf(result: HostResult): string {
  const content = Array.isArray(result.content) ? (result.content as { text?: string }[]) : [];
  return content.map((block) => block.text ?? '').join('\n');
}

/** A notice as the model reads it, with the summary the operator sees in the web UI's notice row. */
export function describeNotice(notice: unknown): string {
  const n = notice as { source?: { summary?: string }; content?: { text?: string }[] };
  const text = n.content?.[0]?.text ?? '';
  return `${yellow('notice')} ${dim(`[summary: ${n.source?.summary ?? '?'}]`)}\n${indent(clip(text), '    ')}`;
}

export function scene(title: string, note: string): void {
  console.log(`\n${bold(`== ${title}`)}\n${dim(note)}\n`);
}
