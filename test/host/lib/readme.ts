/**
 * The README's command blocks, as the suites run them. A block is the ```sh
 * fence right after a marker line `<!-- commands: <name> … -->`; a name may
 * mark several blocks, which must then be identical. Commands are the block's
 * lines, a heredoc kept whole with its command, comment lines dropped; bash
 * runs them as printed.
 *
 * The Quick start is four blocks a user runs in one terminal, in order:
 * `dsh` (clone, DSH from the host tests' lockfile, PATH), `hmr` (rc.8's row
 * back on), `plugin` (build, pack, add to both profiles) and `verify`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { exec, type Exec } from './dsh.js';
import { REPO_DIR } from './env.js';

export const README = join(REPO_DIR, 'README.md');

/** The text of the block(s) marked `name`, without the fences. */
export function readmeBlock(name: string, text: string = readFileSync(README, 'utf8')): string {
  const marker = new RegExp(`^<!-- commands: ${name.replace(/[-]/g, '\\-')}(?: [^\\n]*)? -->\\n\`\`\`sh\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  const blocks = [...text.matchAll(marker)].map((match) => match[1] ?? '');
  if (blocks.length === 0) throw new Error(`README.md has no block marked <!-- commands: ${name} --> followed by a \`\`\`sh fence`);
  if (blocks.some((block) => block !== blocks[0])) {
    throw new Error(`README.md prints the "${name}" block ${blocks.length} times, and the copies differ: keep them identical`);
  }
  return blocks[0]!;
}

/** The Quick start's blocks, in the order a user runs them in one terminal. */
export const QUICK_START = ['dsh', 'hmr', 'plugin', 'verify'] as const;

/** The Quick start's commands, every block in order, for one shell (its `export PATH` holds for what follows). */
export function quickStartCommands(text?: string): string[] {
  return QUICK_START.flatMap((name) => commandsOf(readmeBlock(name, text)));
}

/** One command per entry: a line, or a line opening a heredoc together with its body and terminator. */
export function commandsOf(block: string): string[] {
  const lines = block.split('\n');
  const commands: string[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const heredoc = /<<-?\s*'?(\w+)'?/.exec(line);
    if (heredoc === null) {
      commands.push(line);
      continue;
    }
    const end = lines.findIndex((candidate, i) => i > at && candidate === heredoc[1]);
    if (end === -1) throw new Error(`the heredoc opened by ${JSON.stringify(line)} has no ${heredoc[1]} line`);
    commands.push(lines.slice(at, end + 1).join('\n'));
    at = end;
  }
  return commands;
}

/** A command line without its trailing `# comment` (a `#` inside a word, as in `…#v0.7.0`, stays). */
export function withoutComment(command: string): string {
  return command.replace(/\s+#\s.*$/, '');
}

/**
 * Runs commands as one bash script that stops at the first failure. The script gets a process
 * group of its own, so a timeout stops everything it started (npm, pnpm, git), by the group's id.
 */
export function runCommands(commands: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Exec> {
  return exec('bash', ['-euo', 'pipefail', '-c', `${commands.join('\n')}\n`], { ...options, group: true });
}

/** What a failed run printed, for an assertion message. */
export function describeRun(run: Exec): string {
  return `exit ${String(run.code)} (${String(run.signal)}) after ${run.ms} ms\n--- stdout ---\n${run.stdout.slice(-4000)}\n--- stderr ---\n${run.stderr.slice(-4000)}`;
}
