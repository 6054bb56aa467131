/**
 * `--tools minimal`: a recorded session as DSH's minimal preset would have
 * handed it to the plugin. The calls and their outcomes stay the recorded ones;
 * only the tools' shapes change, to the ones rc.8's minimal preset composes:
 *
 * - `bash` is the persistent bash (`@deepseek-ai/dsh-tool-bash-persistent`):
 *   arguments `{command}` alone; the result a plain string, with
 *   `[exit code: N]` appended for a non-zero status, and a time-out written as
 *   the tool writes it (the sentence, the partial output, the reset notice);
 * - `read`, `edit` and `write` are `str_replace_editor`
 *   (`@deepseek-ai/dsh-tool-str-replace-editor`) `view` (a window as
 *   `view_range`), `str_replace` and `create`, over absolute paths; a rejected
 *   edit is its `FS_EDIT_NOT_FOUND` refusal, a failed read its `FS_NOT_FOUND`;
 * - every other tool is left as recorded (the minimal preset has none of
 *   them: the model would have reached for bash, which the log does not say).
 */
import type { ToolResult } from '../../src/lib/host/types.js';
import { isMapping, member } from '../../src/lib/host/member.js';
import type { Episode, EpisodeCall, EpisodeEvent } from './episode.js';

export const TOOL_SETS = ['one-shot', 'minimal'] as const;
export type ToolSet = (typeof TOOL_SETS)[number];

/** The persistent bash's time limit in the minimal preset (`timeoutMs: 300000`). */
const TIMEOUT_SECONDS = 300;
const RESET_NOTICE = 'The persistent bash shell was reset; the next bash call starts from the workspace with a fresh current directory and environment.';
/** Where a relative path of the log is put: the editor takes absolute paths only. */
const WORKSPACE = '/workspace';

function textOf(result: ToolResult): string {
  const content = result.content;
  const first = Array.isArray(content) ? member(content[0], 'text') : undefined;
  return typeof first === 'string' ? first : '';
}

function plain(text: string): ToolResult {
  return { isError: false, value: text, content: [{ type: 'text', text }] };
}

/** A thrown error as the host shapes it (`error.info` for a HarnessError such as FsError). */
function refused(message: string, code: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text: `Error: ${message}` }], error: { message, info: { name: 'FsError', code } } };
}

function absolute(path: unknown): string {
  const text = typeof path === 'string' ? path : '';
  return text.startsWith('/') ? text : `${WORKSPACE}/${text.replace(/^\.\//, '')}`;
}

function persistentBash(call: EpisodeCall): EpisodeCall {
  const command = member(call.arguments, 'command');
  const text = textOf(call.result);
  const value = member(call.result, 'value');
  const exitCode = member(value, 'exitCode');
  let body: string;
  if (member(value, 'timedOut') === true) {
    body = [`Your command timed out after ${TIMEOUT_SECONDS} seconds or experienced an OOM error. Below is partial output:`, text, RESET_NOTICE].join('\n');
  } else if (typeof exitCode === 'number' && exitCode !== 0 && !text.includes(`[exit code: ${exitCode}]`)) {
    body = text.length === 0 ? `[exit code: ${exitCode}]` : `${text}\n[exit code: ${exitCode}]`;
  } else body = text;
  return { ...call, arguments: typeof command === 'string' ? { command } : call.arguments, result: plain(body) };
}

function editor(call: EpisodeCall, args: Record<string, unknown>, ok: () => ToolResult, failed: () => ToolResult): EpisodeCall {
  return { ...call, name: 'str_replace_editor', arguments: args, result: call.result.isError === true ? failed() : ok() };
}

function view(call: EpisodeCall, args: Record<string, unknown>): EpisodeCall {
  const path = absolute(args.file_path ?? args.path);
  const offset = args.offset;
  const limit = args.limit;
  const from = typeof offset === 'number' && offset > 0 ? offset : 1;
  const window = typeof offset === 'number' || typeof limit === 'number' ? { view_range: [from, typeof limit === 'number' ? from + limit - 1 : -1] } : {};
  return editor(call, { command: 'view', path, ...window }, () => plain(textOf(call.result)), () => refused(`The path ${path} does not exist. Please provide a valid path.`, 'FS_NOT_FOUND'));
}

function replace(call: EpisodeCall, args: Record<string, unknown>): EpisodeCall {
  const path = absolute(args.file_path ?? args.path);
  const oldStr = typeof args.old_string === 'string' ? args.old_string : '';
  const newStr = typeof args.new_string === 'string' ? args.new_string : '';
  return editor(
    call,
    { command: 'str_replace', path, old_str: oldStr, new_str: newStr },
    () => plain(`The file ${path} has been edited successfully.`),
    () => refused(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`, 'FS_EDIT_NOT_FOUND'),
  );
}

function create(call: EpisodeCall, args: Record<string, unknown>): EpisodeCall {
  const path = absolute(args.file_path ?? args.path);
  const content = typeof args.content === 'string' ? args.content : '';
  return editor(
    call,
    { command: 'create', path, file_text: content },
    () => plain(`New file created successfully at: ${path}`),
    // create's own refusal is a plain Error: the host gives it no code.
    () => ({ isError: true, content: [{ type: 'text', text: `Error: File already exists at: ${path}. Cannot overwrite files using command \`create\`.` }], error: { message: `File already exists at: ${path}. Cannot overwrite files using command \`create\`.` } }),
  );
}

/** One call as the minimal preset's tools would have returned it. */
export function minimalCall(call: EpisodeCall): EpisodeCall {
  if (call.name === 'bash') return persistentBash(call);
  const args = isMapping(call.arguments) ? call.arguments : {};
  if (call.name === 'read') return view(call, args);
  if (call.name === 'edit') return replace(call, args);
  if (call.name === 'write') return create(call, args);
  return call;
}

/** An episode replayed through the given tool set. */
export function withTools(episode: Episode, tools: ToolSet): Episode {
  if (tools === 'one-shot') return episode;
  const events: EpisodeEvent[] = episode.events.map((event) => (event.kind === 'call' ? minimalCall(event) : event));
  return { ...episode, events };
}
