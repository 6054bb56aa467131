/**
 * Reading a DSH session log (`$DSH_HOME/sessions/--<cwd>--/session-<uuid>/`):
 * `session.jsonl.zstd` as DSH writes it by default, or plain `session.jsonl`
 * (the persistence row's `compression: none`). The format is DSH 0.1.0-rc.8's:
 * a header line, then one line per stored record. A line is an event, or a
 * storage row packing a run of streamed deltas, which expands back into the
 * `assistant/chunk` events it stands for, exactly as DSH's own reader does.
 * Like DSH's reader, an event type outside the known vocabulary refuses the
 * file unless it is marked `ignorable`: a required event we cannot read could
 * change what the rest means.
 *
 * What comes out is what a replay needs, in log order: tool calls (with the
 * step that made them), their results, human messages, plugin notices and the
 * approval audit. A streamed call and a whole one look alike here: the call a
 * replay gates is the agent loop's `tool/call` record, written when the call
 * starts, with its arguments joined; the model's deltas (`assistant/chunk`,
 * packed or not) and its `assistant/message` are read, validated and passed over.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isMapping } from '../../src/lib/host/member.js';
import { DecodeError, decodeZstd, looksLikeZstd, type DecodeOptions } from './zstd.js';

/** A file that is not a session log this reader can trust, in one sentence. */
export class SessionLogError extends Error {
  override readonly name = 'SessionLogError';
}

/** The format version DSH 0.1.0-rc.8 stamps into the header. */
export const FORMAT_VERSION = 0;

/**
 * The event vocabulary of DSH 0.1.0-rc.8: `KNOWN_SESSION_EVENT_TYPES` of
 * `@deepseek-ai/dsh-session`, the set its persistence reader checks every event
 * against (`@deepseek-ai/dsh-session-persistence`). The host suite `records`
 * compares this list with the installed DSH's.
 */
export const KNOWN_RECORD_TYPES: ReadonlySet<string> = new Set([
  'agent-preset/selected',
  'agent/inbox/spliced',
  'approval/asked',
  'approval/decided',
  'approval/policy',
  'assistant/chunk',
  'assistant/message',
  'command/done',
  'command/run',
  'compaction/end',
  'compaction/prune',
  'compaction/start',
  'compaction/summary',
  'feedback/record',
  'goal/change',
  'hook/invoked',
  'hook/result',
  'llm/retry',
  'llm/retry-started',
  'permission/preset',
  'plan/mode',
  'request/context',
  'request/header',
  'sandbox/mode',
  'schedule/change',
  'session/end-seed',
  'session/title',
  'session/title-llm-request',
  'step/end',
  'step/start',
  'subagent/descriptor',
  'team/member',
  'team/message/delivered',
  'team/message/queued',
  'team/task',
  'todo/write',
  'tool-workflow/agent-end',
  'tool-workflow/agent-start',
  'tool-workflow/run-end',
  'tool-workflow/run-start',
  'tool/call',
  'tool/code-dispatch',
  'tool/code-dispatch-start',
  'tool/result',
  'turn/end',
  'turn/start',
  'user/message',
  'web/deepseek-search-llm-request',
]);

/**
 * The storage rows of DSH 0.1.0-rc.8: not events but a durable encoding of a
 * run of three or more consecutive deltas of one streamed block (`packChunkRuns`
 * of `@deepseek-ai/dsh-session`, written by `@deepseek-ai/dsh-session-persistence-jsonl`;
 * read back by `decodeStorageRecord`). Each expands into its `assistant/chunk`
 * events, members numbered from `seq0`. Every real provider streams, so almost
 * every real log holds them. The host suite `records` compares this list with
 * the tags the installed DSH decodes.
 */
export const STORAGE_ROW_TYPES: ReadonlySet<string> = new Set(['reasoning-chunks', 'text-chunks', 'tool-call-chunks']);

/**
 * The error code of a call DSH skipped without running its policy: calls of a
 * step not yet started when the turn was stopped get a `tool/call` and a
 * synthetic `tool/result` with this code (`appendSkippedToolCall` of
 * `@deepseek-ai/dsh-agent-loop`; the code is `TOOL_ABORTED_BEFORE_DISPATCH` of
 * `@deepseek-ai/dsh-tools`).
 */
export const ABORTED_BEFORE_DISPATCH = 'ABORTED_BEFORE_DISPATCH';

export interface SessionHeader {
  readonly id: string;
  readonly version: number;
  readonly cwd: string | undefined;
  /** 0 for a top-level session; a subagent's log is its own file with depth >= 1. */
  readonly delegationDepth: number;
}

export interface LogRecord {
  readonly type: string;
  readonly seq: number | undefined;
  /**
   * The record's payload as DSH wrote it. Untyped on purpose (`any`): the host
   * suites dig into records freely; the replay reads the typed `events` instead.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly data: any;
}

/** The failure identity DSH logs beside an error result (`tool/result.data.error`). */
export interface ErrorIdentity {
  readonly name: string;
  readonly code: string;
}

export type SessionEvent =
  | {
      readonly kind: 'call';
      readonly seq: number;
      readonly callId: string;
      readonly name: string;
      readonly arguments: unknown;
      readonly rawArguments: string;
      /**
       * The model step that made the call, `turn:step` (`undefined` when the log
       * does not say). Calls of one step run as DSH's scheduler runs them: in
       * pools of parallel-safe calls between exclusive ones, results committed
       * in model order.
       */
      readonly step: string | undefined;
      /**
       * DSH skipped the call: the turn was stopped before it started, so no
       * hook ever saw it (see {@link ABORTED_BEFORE_DISPATCH}).
       */
      readonly skipped: boolean;
    }
  | {
      readonly kind: 'result';
      readonly seq: number;
      readonly callId: string;
      readonly isError: boolean;
      /** The content blocks exactly as logged. */
      readonly content: readonly unknown[];
      readonly text: string;
      readonly error: ErrorIdentity | undefined;
    }
  | { readonly kind: 'human'; readonly seq: number; readonly text: string }
  | { readonly kind: 'notice'; readonly seq: number; readonly plugin: string; readonly summary: string | undefined; readonly text: string }
  | {
      readonly kind: 'asked';
      readonly seq: number;
      readonly id: string;
      readonly callId: string | undefined;
      readonly toolName: string;
      readonly reason: string | undefined;
    }
  | { readonly kind: 'decided'; readonly seq: number; readonly id: string; readonly outcome: string };

/** One tool call and the result the model was shown. */
export interface ToolStep {
  readonly callId: string;
  readonly name: string;
  /** Parsed arguments (the log stores the raw JSON string). */
  readonly arguments: Record<string, unknown>;
  /** Whether a `tool/result` arrived for this call. */
  readonly settled: boolean;
  /** DSH skipped the call after a stop: it never ran and no hook saw it. */
  readonly skipped: boolean;
  readonly isError: boolean;
  /** The text the model reads for this result (text blocks joined by `\n`). */
  readonly text: string;
}

export interface Notice {
  readonly plugin: string;
  readonly text: string;
  readonly summary: string | undefined;
}

export interface SessionLog {
  readonly path: string;
  readonly header: SessionHeader;
  readonly records: readonly LogRecord[];
  /** Calls, results, human messages, plugin notices and approvals, in log order. */
  readonly events: readonly SessionEvent[];
  readonly steps: readonly ToolStep[];
  /** User-role messages whose `source.kind` is `plugin`, in log order. */
  readonly notices: readonly Notice[];
  readonly approvalsAsked: readonly { toolName: string; callId: string | undefined; reason: string | undefined }[];
  readonly approvalsDecided: readonly string[];
  readonly turnsEnded: number;
  /** Things skipped that did not make the log unreadable (a torn last line, ignorable unknown events). */
  readonly warnings: readonly string[];
}

const LOG_NAMES = ['session.jsonl.zstd', 'session.jsonl'];

/** Every session log file under a DSH home, oldest first. */
export function findSessionLogs(dshHome: string): string[] {
  const root = join(dshHome, 'sessions');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  for (const cwdDir of readdirSync(root)) {
    const cwdPath = join(root, cwdDir);
    if (!statSync(cwdPath).isDirectory()) continue;
    for (const sessionDir of readdirSync(cwdPath)) {
      for (const file of LOG_NAMES) {
        const path = join(cwdPath, sessionDir, file);
        if (existsSync(path)) found.push(path);
      }
    }
  }
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/**
 * The log files named by the command line: files as given, directories walked
 * for `*.jsonl` and `*.jsonl.zstd`. Where one directory holds both spellings of
 * the same log, only the `.zstd` (what DSH writes by default) is taken.
 */
export function collectLogFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    const names = new Set(entries.map((entry) => entry.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (entry.name.endsWith('.jsonl.zstd')) out.push(path);
      else if (entry.name.endsWith('.jsonl') && !names.has(`${entry.name}.zstd`)) out.push(path);
    }
  };
  for (const path of paths) {
    if (existsSync(path) && statSync(path).isDirectory()) walk(path);
    else out.push(path);
  }
  return out;
}

/** What a session is called in reports: its directory (the scenario, or `session-<uuid>`). */
export function sessionName(path: string): string {
  return LOG_NAMES.includes(basename(path)) ? basename(dirname(path)) : basename(path);
}

function field(holder: unknown, key: string): unknown {
  return isMapping(holder) ? holder[key] : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The text the model reads: text blocks joined by newlines. */
export function textOfBlocks(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  const parts: string[] = [];
  for (const block of blocks) {
    const text = field(block, 'text');
    if (field(block, 'type') === 'text' && typeof text === 'string' && text.length > 0) parts.push(text);
  }
  return parts.join('\n');
}

function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return { raw };
  }
}

function asArgumentRecord(value: unknown): Record<string, unknown> {
  return isMapping(value) ? value : { value };
}

/** The log's bytes as text: zstd is recognised by its magic number, whatever the file is called. */
export function readLogText(path: string, options: DecodeOptions = {}): string {
  const bytes = readFileSync(path);
  if (looksLikeZstd(bytes)) return decodeZstd(bytes, options);
  if (path.endsWith('.zstd')) throw new DecodeError('not zstd data (no zstd frame magic number at byte 0)');
  return bytes.toString('utf8');
}

function readHeader(line: string | undefined): SessionHeader {
  let value: unknown;
  try {
    value = line === undefined ? undefined : JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (!isMapping(value) || value.type !== 'session' || typeof value.id !== 'string') {
    throw new SessionLogError('not a DSH session log: the first line is not a session header ({"type":"session","id":…})');
  }
  if (value.version !== FORMAT_VERSION) {
    throw new SessionLogError(
      `session format version ${JSON.stringify(value.version)}: this reader knows version ${FORMAT_VERSION} (DSH 0.1.0-rc.8)`,
    );
  }
  const depth = value.delegationDepth;
  return { id: value.id, version: FORMAT_VERSION, cwd: str(value.cwd), delegationDepth: typeof depth === 'number' ? depth : 0 };
}

/** Parses log text. Throws {@link SessionLogError} when it is not a log this reader can replay. */
export function parseSessionLog(path: string, text: string): SessionLog {
  const lines = text.split('\n');
  // A file ending in a newline leaves one empty string; a torn tail does not.
  const torn = lines.at(-1) !== '';
  if (!torn) lines.pop();
  const header = readHeader(lines[0]);
  const records: LogRecord[] = [];
  const warnings: string[] = [];
  const skipped = new Map<string, number>();
  for (let at = 1; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (torn && at === lines.length - 1) {
        // A crash mid-write leaves a torn last line; it was never committed.
        warnings.push(`line ${at + 1}: torn last line skipped`);
        continue;
      }
      throw new SessionLogError(`line ${at + 1} is not JSON: the log is corrupt`);
    }
    const type = field(value, 'type');
    if (typeof type !== 'string') throw new SessionLogError(`line ${at + 1} has no record type`);
    if (STORAGE_ROW_TYPES.has(type)) {
      records.push(...expandRow(value as Record<string, unknown>, type, at + 1));
      continue;
    }
    if (!KNOWN_RECORD_TYPES.has(type)) {
      if (field(value, 'ignorable') === true) {
        skipped.set(type, (skipped.get(type) ?? 0) + 1);
        continue;
      }
      throw new SessionLogError(
        `unknown record type ${JSON.stringify(type)} at line ${at + 1}, not marked ignorable: written by a newer DSH than 0.1.0-rc.8?`,
      );
    }
    const seq = field(value, 'seq');
    records.push({ type, seq: typeof seq === 'number' ? seq : undefined, data: field(value, 'data') });
  }
  for (const [type, count] of skipped) warnings.push(`${count} ignorable ${JSON.stringify(type)} record(s) skipped`);
  return { path, header, records, warnings, ...extract(records) };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string');
}

function hasKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

/**
 * One storage row back into its `assistant/chunk` events, checked as strictly
 * as DSH checks it (`decodeStorageRecord`): a malformed row is corrupt storage,
 * and reading around it would silently drop a whole streamed block.
 */
function expandRow(row: Record<string, unknown>, type: string, line: number): LogRecord[] {
  const malformed = (why: string): never => {
    throw new SessionLogError(`malformed ${type} row at line ${line}: ${why}`);
  };
  const { seq0, time0, data } = row;
  if (!hasKeys(row, ['type', 'seq0', 'time0', 'data'])) malformed('the row must be exactly {type, seq0, time0, data}');
  if (typeof seq0 !== 'number' || !Number.isSafeInteger(seq0) || seq0 < 0) return malformed('seq0 must be a non-negative integer');
  if (!Number.isSafeInteger(time0)) malformed('time0 must be an integer');
  if (!isMapping(data)) return malformed('data must be an object');
  const calls = type === 'tool-call-chunks';
  const keys = calls ? ['turn', 'step', 'index', 'id', 'dt', 'args'] : ['turn', 'step', 'index', 'dt', 'texts'];
  const named = calls && Object.hasOwn(data, 'name');
  if (!hasKeys(data, named ? [...keys, 'name'] : keys)) malformed(`data must be exactly {${keys.join(', ')}${calls ? ', name?' : ''}}`);
  const members = calls ? data.args : data.texts;
  if (!isStringList(members)) return malformed(`${calls ? 'args' : 'texts'} must be a non-empty list of strings`);
  const { turn, step, index, id, name, dt } = data;
  if (!Array.isArray(dt) || dt.length !== members.length - 1 || !dt.every(Number.isSafeInteger)) {
    malformed('dt must hold one integer time gap per member after the first');
  }
  if (calls && (typeof id !== 'string' || (named && typeof name !== 'string'))) malformed('id and name must be strings');
  return members.map((member, at) => ({
    type: 'assistant/chunk',
    seq: seq0 + at,
    data: {
      turn,
      step,
      chunk: calls
        ? { type: 'tool-call-delta', index, id, ...(named ? { name } : {}), argumentsDelta: member }
        : { type: type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index, text: member },
    },
  }));
}

type Extracted = Pick<SessionLog, 'events' | 'steps' | 'notices' | 'approvalsAsked' | 'approvalsDecided' | 'turnsEnded'>;

function extract(records: readonly LogRecord[]): Extracted {
  const events: SessionEvent[] = [];
  const notices: Notice[] = [];
  const approvalsAsked: { toolName: string; callId: string | undefined; reason: string | undefined }[] = [];
  const approvalsDecided: string[] = [];
  let turnsEnded = 0;
  const skipped = skippedCalls(records);
  records.forEach((record, index) => {
    const { data } = record;
    const seq = record.seq ?? index;
    switch (record.type) {
      case 'tool/call': {
        const rawArguments = str(field(data, 'arguments')) ?? JSON.stringify(field(data, 'arguments') ?? {});
        const callId = String(field(data, 'callId'));
        const turn = field(data, 'turn');
        const step = field(data, 'step');
        events.push({
          kind: 'call',
          seq,
          callId,
          name: String(field(data, 'name')),
          arguments: parseArguments(rawArguments),
          rawArguments,
          step: typeof turn === 'number' && typeof step === 'number' ? `${turn}:${step}` : undefined,
          skipped: skipped.has(callId),
        });
        break;
      }
      case 'tool/result': {
        const content = field(field(data, 'message'), 'content');
        const error = field(data, 'error');
        const identity = isMapping(error) ? { name: String(error.name ?? ''), code: String(error.code ?? '') } : undefined;
        for (const block of Array.isArray(content) ? content : []) {
          if (field(block, 'type') !== 'tool-result') continue;
          const blocks = field(block, 'content');
          events.push({
            kind: 'result',
            seq,
            callId: String(field(block, 'toolCallId')),
            isError: field(block, 'isError') === true,
            content: Array.isArray(blocks) ? blocks : [],
            text: textOfBlocks(blocks),
            error: identity,
          });
        }
        break;
      }
      case 'user/message': {
        const source = field(data, 'source');
        const text = textOfBlocks(field(data, 'content'));
        const kind = field(source, 'kind');
        if (kind === 'user') events.push({ kind: 'human', seq, text });
        else if (kind === 'plugin') {
          const notice = { plugin: String(field(source, 'plugin') ?? ''), text, summary: str(field(source, 'summary')) };
          notices.push(notice);
          events.push({ kind: 'notice', seq, ...notice });
        }
        break;
      }
      case 'approval/asked': {
        const asked = { toolName: String(field(data, 'toolName')), callId: str(field(data, 'callId')), reason: str(field(data, 'reason')) };
        approvalsAsked.push(asked);
        events.push({ kind: 'asked', seq, id: String(field(data, 'id')), ...asked });
        break;
      }
      case 'approval/decided': {
        const outcome = String(field(data, 'outcome'));
        approvalsDecided.push(outcome);
        events.push({ kind: 'decided', seq, id: String(field(data, 'id')), outcome });
        break;
      }
      case 'turn/end':
        turnsEnded += 1;
        break;
      case 'assistant/chunk':
      case 'assistant/message':
        // The model's answer as streamed and as assembled. The calls in it are
        // replayed from their `tool/call` records, which the agent loop writes
        // when it starts each call, arguments whole; a call the model streamed
        // in pieces and one it sent at once are the same record there.
        break;
      default:
        break;
    }
  });
  return { events, steps: stepsOf(events), notices, approvalsAsked, approvalsDecided, turnsEnded };
}

/**
 * The calls DSH skipped after a stop: their result carries
 * {@link ABORTED_BEFORE_DISPATCH} and nobody was asked about them. (The same
 * code on a call the operator was asked about means the stop came while the
 * ask was open: the policy had run.)
 */
function skippedCalls(records: readonly LogRecord[]): Set<string> {
  const asked = new Set<string>();
  const skipped = new Set<string>();
  for (const { type, data } of records) {
    if (type === 'approval/asked') {
      const callId = field(data, 'callId');
      if (typeof callId === 'string') asked.add(callId);
    } else if (type === 'tool/result' && field(field(data, 'error'), 'code') === ABORTED_BEFORE_DISPATCH) {
      const content = field(field(data, 'message'), 'content');
      for (const block of Array.isArray(content) ? content : []) {
        const callId = field(block, 'toolCallId');
        if (typeof callId === 'string' && !asked.has(callId)) skipped.add(callId);
      }
    }
  }
  return skipped;
}

/** Each call paired with its result, in call order. */
function stepsOf(events: readonly SessionEvent[]): ToolStep[] {
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const event of events) if (event.kind === 'result') results.set(event.callId, event);
  const seen = new Set<string>();
  const steps: ToolStep[] = [];
  for (const event of events) {
    if (event.kind !== 'call' || seen.has(event.callId)) continue;
    seen.add(event.callId);
    const result = results.get(event.callId);
    steps.push({
      callId: event.callId,
      name: event.name,
      arguments: asArgumentRecord(event.arguments),
      settled: result !== undefined,
      skipped: event.skipped,
      isError: result?.isError ?? false,
      text: result?.text ?? '',
    });
  }
  return steps;
}

/** Reads and parses one log file. Throws {@link DecodeError} or {@link SessionLogError}. */
export function readSessionLog(path: string, options: DecodeOptions = {}): SessionLog {
  return parseSessionLog(path, readLogText(path, options));
}
