/**
 * Results as DSH's minimal preset writes them (rc.8): the persistent `bash`
 * (`@deepseek-ai/dsh-tool-bash-persistent`, a string value rendered as one text
 * block) and `str_replace_editor` (`@deepseek-ai/dsh-tool-str-replace-editor`,
 * whose refusals are thrown `FsError`s the host shapes as `error.info`).
 * Rebuilt from the tools' format strings; the minimal host suite runs the tools
 * themselves.
 */
import type { HostResult } from './fake-host.js';

export type PersistentShell = 'bash' | 'pwsh';

export function resetNotice(shell: PersistentShell = 'bash'): string {
  return `The persistent ${shell} shell was reset; the next ${shell} call starts from the workspace with a fresh current directory and environment.`;
}

/** A completed command: its output, with `[exit code: N]` appended by the tool for a non-zero status. */
export function persistentBash(text: string): HostResult {
  return { isError: false, value: text, content: [{ type: 'text', text }] };
}

/** A command that ran out of time: the sentence, the partial output, the reset notice. */
export function persistentTimeout(seconds: number, partial: string, shell: PersistentShell = 'bash'): HostResult {
  return persistentBash([`Your command timed out after ${seconds} seconds or experienced an OOM error. Below is partial output:`, partial, resetNotice(shell)].join('\n'));
}

/** The shell died under the command: the partial output, the death marker, the reset notice. */
export function shellDeath(partial: string, marker: string, shell: PersistentShell = 'bash'): HostResult {
  return persistentBash([partial.length === 0 ? marker : `${partial}\n${marker}`, resetNotice(shell)].join('\n'));
}

/** What an interactive child waiting on stdin leaves: its prompt, no marker. */
export const STDIN_WAIT = 'Overwrite existing file? [y/N]';

/** A refused `str_replace_editor` call, as the host shapes a thrown `FsError`. */
export function refusedEdit(path: string, oldStr: string, code: 'FS_EDIT_NOT_FOUND' | 'FS_AMBIGUOUS_EDIT' | 'FS_NOT_FOUND' = 'FS_EDIT_NOT_FOUND'): HostResult {
  const message =
    code === 'FS_EDIT_NOT_FOUND'
      ? `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`
      : code === 'FS_AMBIGUOUS_EDIT'
        ? `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines [3, 9]. Please ensure it is unique`
        : `The path ${path} does not exist. Please provide a valid path.`;
  return { isError: true, content: [{ type: 'text', text: `Error: ${message}` }], error: { message, info: { name: 'FsError', code } } };
}
