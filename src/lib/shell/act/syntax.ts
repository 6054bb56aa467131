/**
 * The shape `act:` works on: a command line read as the shell reads it, into
 * pipelines of simple commands, each with its assignments, words and
 * redirections. Rules rewrite this shape; `renderLine` writes it back as text.
 */

import type { Word } from '../lex.js';

/** One word of a command: `text` is how it is written in the canonical line; a word whose `value` is `null` is kept as written and never rewritten. */
export type { Word } from '../lex.js';

/** A redirection: `2>&1` is fd `2`, op `>&`, target `1`. */
export interface Redirect {
  readonly fd: string;
  readonly op: string;
  readonly target: Word;
}

// What `>&` and `<&` copy or close: a descriptor number, or `-`.
const DESCRIPTOR = /^(?:\d+|-)$/;

/** `2>&1`, `<&3`, `>&-`: a copy or close of a descriptor. Any other word after `>&` is a file to write (bash's `&>`). */
export function copiesDescriptor(r: Redirect): boolean {
  // Stryker disable next-line StringLiteral: '' stands for a target that expands, which is no descriptor, as no text put in its place is
  return (r.op === '>&' || r.op === '<&') && DESCRIPTOR.test(r.target.value ?? '');
}

/** A simple command: `A=1 make -C d >log` is assigns [A=1], words [make, -C, d], redirects [>log]. */
export interface Command {
  readonly assigns: readonly Word[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
}

/** What joins two pipelines of a line. */
export type Connector = '&&' | '||' | ';' | '&';

/** `a | b && c; d`: pipelines [[a, b], [c], [d]], connectors [&&, ;]. */
export interface Line {
  readonly pipelines: readonly (readonly Command[])[];
  /** `connectors[i]` joins `pipelines[i]` and `pipelines[i + 1]`. */
  readonly connectors: readonly Connector[];
  /** A trailing `&`: the whole line runs in the background. */
  readonly background: boolean;
}

// Characters a word may show bare in the canonical text; anything else is single-quoted. A regular
// expression: compiled to machine code, it reads a word faster than a loop over its characters.
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A literal value written the one canonical way: bare when safe, else in single quotes. */
export function quote(value: string): string {
  if (BARE.test(value)) return value;
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** A word made by a rule: always a literal, written canonically. */
export function word(value: string): Word {
  return { text: quote(value), value };
}

/** The literal value of a word, or `null` when it expands or is absent. */
export function valueOf(w: Word | undefined): string | null {
  return w === undefined ? null : w.value;
}

/** The command's name (its first word) when it is a literal, else `null`. */
export function nameOf(command: Command): string | null {
  return valueOf(command.words[0]);
}

/**
 * `items` with `rewrite` applied to each; the very same array back when every
 * item came back as itself. Nothing is allocated until an item changes: every
 * rule maps every line (16 rules a command), and most change nothing.
 */
export function mapList<T>(items: readonly T[], rewrite: (item: T, at: number) => T): readonly T[] {
  let out: T[] | null = null;
  for (let at = 0; at < items.length; at += 1) {
    const item = items[at] as T;
    const next = rewrite(item, at);
    if (out === null && next !== item) out = items.slice(0, at);
    if (out !== null) out.push(next);
  }
  return out ?? items;
}

/** Applies `rewrite` to every pipeline of the line; the same line back when no pipeline changed. */
export function mapPipelines(line: Line, rewrite: (pipeline: readonly Command[]) => readonly Command[]): Line {
  const pipelines = mapList(line.pipelines, rewrite);
  return pipelines === line.pipelines ? line : lineWith(pipelines, line.connectors, line.background);
}

/**
 * Applies `rewrite` to every simple command of the line, with its place in its
 * pipeline (`0` for the first); the same line back when no command changed.
 * Every rule but two maps the line this way: a plain loop, with no list copied
 * until a command changes.
 */
export function mapCommands(line: Line, rewrite: (command: Command, place: number) => Command): Line {
  let pipelines: (readonly Command[])[] | null = null;
  for (let at = 0; at < line.pipelines.length; at += 1) {
    const pipeline = line.pipelines[at] as readonly Command[];
    // The pipeline's commands mapped here rather than by mapList: one call less per pipeline and rule.
    let commands: Command[] | null = null;
    for (let place = 0; place < pipeline.length; place += 1) {
      const command = pipeline[place] as Command;
      const next = rewrite(command, place);
      if (commands === null && next !== command) commands = pipeline.slice(0, place);
      if (commands !== null) commands.push(next);
    }
    if (pipelines === null && commands !== null) pipelines = line.pipelines.slice(0, at);
    if (pipelines !== null) pipelines.push(commands ?? pipeline);
  }
  return pipelines === null ? line : lineWith(pipelines, line.connectors, line.background);
}

/**
 * A command of these parts. Commands, lines and redirections are made in one
 * property order each (here and by the reader, line.ts), never by spreading
 * one into another: a spread object has a shape of its own, and every rule
 * reading commands of several shapes reads them slower.
 */
export function commandOf(assigns: readonly Word[], words: readonly Word[], redirects: readonly Redirect[]): Command {
  return { assigns, words, redirects };
}

/** The command with these words. */
export function withWords(command: Command, words: readonly Word[]): Command {
  return { assigns: command.assigns, words, redirects: command.redirects };
}

/** A line of these parts (see `commandOf`). */
export function lineWith(pipelines: readonly (readonly Command[])[], connectors: readonly Connector[], background: boolean): Line {
  return { pipelines, connectors, background };
}

/** A redirection to this target. */
export function withTarget(r: Redirect, target: Word): Redirect {
  return { fd: r.fd, op: r.op, target };
}

/** A command with these parts, or the command itself when each part is the one it has: rules that change nothing allocate nothing. */
export function withParts(command: Command, assigns: readonly Word[], words: readonly Word[], redirects: readonly Redirect[]): Command {
  return assigns === command.assigns && words === command.words && redirects === command.redirects ? command : commandOf(assigns, words, redirects);
}

/** Whether two word lists read alike: the same text and value at every place. */
export function sameWords(a: readonly Word[], b: readonly Word[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at += 1) {
    const x = a[at] as Word;
    const y = b[at] as Word;
    if (x !== y && (x.text !== y.text || x.value !== y.value)) return false;
  }
  return true;
}

/** The line's last pipeline: the one after which the shell's state no longer matters. */
export function lastPipeline(line: Line): readonly Command[] {
  // Stryker disable next-line ArrayDeclaration: a line always has a pipeline; the fallback only gives the type.
  return line.pipelines[line.pipelines.length - 1] ?? [];
}

/** The line with its last pipeline replaced. */
export function withLastPipeline(line: Line, pipeline: readonly Command[]): Line {
  return lineWith([...line.pipelines.slice(0, -1), pipeline], line.connectors, line.background);
}

/** A command's text after `text`: its assignments, words and redirections, one space apart (written out directly, no lists in between). */
function renderCommand(text: string, command: Command): string {
  let out = text;
  let gap = '';
  for (const w of command.assigns) {
    out += gap + w.text;
    gap = ' ';
  }
  for (const w of command.words) {
    out += gap + w.text;
    gap = ' ';
  }
  for (const r of command.redirects) {
    out += `${gap}${r.fd}${r.op}${r.target.text}`;
    gap = ' ';
  }
  return out;
}

/** The canonical text of a line: single spaces, redirections after the words, `; ` and ` && ` between pipelines. */
export function renderLine(line: Line): string {
  let text = '';
  for (let at = 0; at < line.pipelines.length; at += 1) {
    const pipeline = line.pipelines[at] as readonly Command[];
    for (let place = 0; place < pipeline.length; place += 1) text = renderCommand(place === 0 ? text : `${text} | `, pipeline[place] as Command);
    const connector = line.connectors[at];
    if (connector !== undefined) text += connector === ';' ? '; ' : ` ${connector} `;
  }
  return line.background ? `${text} &` : text;
}
