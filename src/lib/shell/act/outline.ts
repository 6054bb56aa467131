/**
 * The outline of a line: what the rules ask of it before they read it. Most
 * rules concern a few command names (a wrapper, a pager, a runner), and a
 * line holds none of them: read once per line, the outline lets the engine
 * pass such a rule by instead of running it over every command.
 */
import { nameOf, type Command, type Line } from './syntax.js';

export interface Outline {
  /** The literal names of the line's commands (a name that expands is none). */
  readonly names: readonly string[];
  /** The most assignments one command has. */
  readonly assigns: number;
  /** Whether any command has a redirection. */
  readonly redirects: boolean;
}

/** The outline of `line`: one walk over its commands. */
export function outlineOf(line: Line): Outline {
  const names: string[] = [];
  let assigns = 0;
  let redirects = false;
  for (const pipeline of line.pipelines) {
    for (const command of pipeline as readonly Command[]) {
      const name = nameOf(command);
      if (name !== null) names.push(name);
      if (command.assigns.length > assigns) assigns = command.assigns.length;
      if (command.redirects.length > 0) redirects = true;
    }
  }
  return { names, assigns, redirects };
}

/** Whether a command of the outline has one of these names (a set: one kind of table keeps the lookup fast). */
export function namesAny(outline: Outline, names: ReadonlySet<string | null>): boolean {
  for (const name of outline.names) if (names.has(name)) return true;
  return false;
}
