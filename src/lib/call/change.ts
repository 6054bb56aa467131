/**
 * Whether a call changed the workspace: the evidence that a later run of the
 * same command is a new experiment, not the same one again. A file tool that
 * writes (DSH's `edit`, `write`, `str_replace_editor` other than `view`, and
 * the common names of other harnesses), or a shell command that writes a file:
 * a redirection, `tee` or `-o` target (the `sink:` rule), an in-place `sed -i` /
 * `perl -i`, a command whose job is to change files (`patch`, `mv`, `cp`,
 * `rm`, `touch`, `git checkout`/`apply`/`restore`/…), or an install of a
 * package (`pip install`, `npm install`, `apt-get install`, `go get`, `cargo add` …).
 *
 * Where in doubt, no: a change that is missed only leaves the plugin as strict
 * as without this reading. `python - <<EOF` may write files; nothing says so.
 */
import { safeMember } from '../host/member.js';
import { extractSink, isGenericSink, lastSegment, segmentsOf, WRAPPERS } from '../shell/command.js';
import { isShell } from './read.js';
import { tokenize } from '../shell/tokenize.js';

/** File tools that write: DSH's and the usual names of other harnesses. */
export const FILE_EDIT_TOOLS: ReadonlySet<string> = new Set(['edit', 'write', 'multi_edit', 'multiedit', 'str_replace_editor', 'apply_patch', 'notebook_edit']);

/** File tools that read a file: DSH's `read` and the usual names of other harnesses. */
export const FILE_READ_TOOLS: ReadonlySet<string> = new Set(['read', 'read_file', 'view', 'open']);

/** Whether a file tool call reads its file (str_replace_editor's `view` does). */
export function readsFile(name: string, args: unknown): boolean {
  return FILE_READ_TOOLS.has(name) || (name === 'str_replace_editor' && safeMember(args, 'command') === 'view');
}

/** Commands whose job is to change files. */
const CHANGING_COMMANDS: ReadonlySet<string> = new Set(['patch', 'mv', 'cp', 'rm', 'touch', 'truncate', 'ln', 'mkdir', 'unzip', 'tar']);
/** `git` subcommands that change the work tree. */
const CHANGING_GIT: ReadonlySet<string> = new Set(['checkout', 'apply', 'restore', 'reset', 'stash', 'am', 'cherry-pick', 'merge', 'rebase', 'pull', 'switch', 'revert']);
/**
 * Package managers, and the subcommands that install into the environment: an
 * install changes what a later run finds (a test that failed on a missing
 * module is a new experiment after it), as an edit does.
 */
const INSTALLING: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    pip: ['install'],
    pip3: ['install'],
    uv: ['add', 'pip', 'sync'],
    poetry: ['add', 'install'],
    conda: ['install'],
    mamba: ['install'],
    npm: ['install', 'i', 'add', 'ci'],
    yarn: ['add', 'install'],
    pnpm: ['add', 'install', 'i'],
    apt: ['install'],
    'apt-get': ['install'],
    yum: ['install'],
    dnf: ['install'],
    apk: ['add'],
    brew: ['install'],
    gem: ['install'],
    bundle: ['install', 'add'],
    cargo: ['add', 'install'],
    go: ['get', 'install'],
    composer: ['require', 'install'],
  }).map(([manager, subcommands]) => [manager, new Set(subcommands)]),
);

/** Whether `manager …` installs: its first word after the options is an installing subcommand (`python -m pip install` is pip's). */
export function installs(command: string, rest: readonly string[]): boolean {
  if (/^python[0-9.]*$/.test(command) && rest[0] === '-m' && rest[1] !== undefined) return installs(rest[1], rest.slice(2));
  const subcommands = INSTALLING.get(command);
  if (subcommands === undefined) return false;
  const first = rest.find((word) => !word.startsWith('-'));
  return first !== undefined && subcommands.has(first);
}

/** Editors that change a file in place with `-i`. */
const IN_PLACE: ReadonlySet<string> = new Set(['sed', 'perl', 'gsed']);

/** The members a file tool names its file by, first found first: DSH's `file_path`, then `path`, `filePath`. */
export const FILE_PATH_KEYS = ['file_path', 'path', 'filePath'] as const;

/** The file a file tool names, when it names one. */
export function filePathOf(args: unknown): string | undefined {
  for (const key of FILE_PATH_KEYS) {
    const path = safeMember(args, key);
    if (path !== undefined && path !== null) return typeof path === 'string' && path !== '' ? path : undefined;
  }
  return undefined;
}

/** Whether one simple command (its words) changes files. */
function simpleChanges(words: readonly string[]): boolean {
  let at = 0;
  // Assignments and wrappers in front (`FOO=1 sudo sed -i …`).
  while (at < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at] as string) || WRAPPERS.has(words[at] as string))) at += 1;
  const command = lastSegment(words[at] ?? '');
  if (CHANGING_COMMANDS.has(command) || installs(command, words.slice(at + 1))) return true;
  if (command === 'git') return words.slice(at + 1).some((word) => CHANGING_GIT.has(word));
  // `-i`, `-i.bak`, `-pi`, `--in-place`: a short cluster holding `i`, or the long form.
  if (IN_PLACE.has(command)) return words.slice(at + 1).some((word) => word === '--in-place' || /^-[A-Za-z]*i/.test(word));
  return false;
}

/** Whether a shell command, split into its words, changes files (see the module comment); `sink`: the words' sink, when the caller has it. */
export function wordsChange(words: readonly string[], sink: string | null = extractSink(words)): boolean {
  if (sink !== null && !isGenericSink(sink)) return true;
  return segmentsOf(words).some(simpleChanges);
}

/** Whether a shell command changes files (see the module comment). */
export function commandChanges(command: string): boolean {
  return wordsChange(tokenize(command));
}

/** Whether a call, if it ran and succeeded, changed the workspace; a shell call's `line` answers from its one split. */
export function callChanges(name: string, args: unknown, command: string | undefined, line?: { changes(): boolean }): boolean {
  if (isShell(name)) return command !== undefined && (line?.changes() ?? commandChanges(command));
  if (!FILE_EDIT_TOOLS.has(name)) return false;
  // str_replace_editor's `view` only reads.
  return safeMember(args, 'command') !== 'view';
}
