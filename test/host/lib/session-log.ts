/**
 * Reads a DSH session log (`$DSH_HOME/sessions/--<cwd>--/session-<uuid>/`)
 * and turns it into the trajectory the model lived through: every tool call
 * paired with the result it was shown, the plugin notices that entered the
 * conversation, and the approval audit pairs.
 *
 * The boot suite configures the persistence row with `compression: none`
 * (accepted by `@deepseek-ai/dsh-session-persistence-jsonl` 0.1.0-rc.8), so
 * the log is plain `session.jsonl`. A `session.jsonl.zstd` (the shipped
 * default) is decoded too: with the `zstd` command when present, else frame
 * by frame with Node's `zstdDecompressSync` (Node >= 22.15).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';

export interface LogRecord {
  readonly type: string;
  readonly seq?: number;
  readonly data?: any;
}

export interface ToolStep {
  readonly callId: string;
  readonly name: string;
  /** Parsed arguments (the log stores the raw JSON string). */
  readonly arguments: Record<string, unknown>;
  /** Whether a `tool/result` arrived for this call. */
  readonly settled: boolean;
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
  readonly records: readonly LogRecord[];
  readonly steps: readonly ToolStep[];
  /** User-role messages whose `source.kind` is `plugin`, in log order. */
  readonly notices: readonly Notice[];
  readonly approvalsAsked: readonly { toolName: string; callId: string | undefined; reason: string | undefined }[];
  readonly approvalsDecided: readonly string[];
  readonly turnsEnded: number;
}

/** Every session log file under a DSH home, oldest first. */
export function findSessionLogs(dshHome: string): string[] {
  const root = join(dshHome, 'sessions');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  for (const cwdDir of readdirSync(root)) {
    const cwdPath = join(root, cwdDir);
    if (!statSync(cwdPath).isDirectory()) continue;
    for (const sessionDir of readdirSync(cwdPath)) {
      for (const file of ['session.jsonl', 'session.jsonl.zstd']) {
        const path = join(cwdPath, sessionDir, file);
        if (existsSync(path)) found.push(path);
      }
    }
  }
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

function decodeZstd(path: string): string {
  try {
    return execFileSync('zstd', ['-dc', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    // No zstd command: fall back to Node (>= 22.15).
  }
  // Node's one-shot decoder returns only the first frame, so decode frame by
  // frame, splitting on the zstd frame magic number.
  const oneShot = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (typeof oneShot !== 'function') {
    throw new Error(`cannot decode ${path}: no zstd command and this Node has no zstd support`);
  }
  const bytes = readFileSync(path);
  const magic = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
  const starts: number[] = [];
  for (let at = bytes.indexOf(magic); at !== -1; at = bytes.indexOf(magic, at + 1)) starts.push(at);
  let out = '';
  let from = 0;
  for (let i = 0; i < starts.length; i += 1) {
    const end = starts[i + 1] ?? bytes.length;
    try {
      out += oneShot(bytes.subarray(from, end)).toString('utf8');
      from = end;
    } catch {
      // The magic number occurred inside a frame's payload: widen the slice.
    }
  }
  return out;
}

function textOfBlocks(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  return blocks
    .map((b: any) => (b && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .filter((t) => t.length > 0)
    .join('\n');
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { value: parsed };
    } catch {
      return { raw };
    }
  }
  return raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
}

export function readSessionLog(path: string): SessionLog {
  const text = path.endsWith('.zstd') ? decodeZstd(path) : readFileSync(path, 'utf8');
  const records: LogRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as LogRecord);
    } catch {
      // A torn tail line (crash) is not part of the committed log.
    }
  }

  const order: string[] = [];
  const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
  const results = new Map<string, { isError: boolean; text: string }>();
  const notices: Notice[] = [];
  const approvalsAsked: { toolName: string; callId: string | undefined; reason: string | undefined }[] = [];
  const approvalsDecided: string[] = [];
  let turnsEnded = 0;

  for (const record of records) {
    const data = record.data ?? {};
    switch (record.type) {
      case 'tool/call': {
        const callId = String(data.callId);
        if (!calls.has(callId)) order.push(callId);
        calls.set(callId, { name: String(data.name), arguments: parseArgs(data.arguments) });
        break;
      }
      case 'tool/result': {
        for (const block of data.message?.content ?? []) {
          if (block?.type !== 'tool-result') continue;
          results.set(String(block.toolCallId), { isError: block.isError === true, text: textOfBlocks(block.content) });
        }
        break;
      }
      case 'user/message': {
        const source = data.source ?? {};
        if (source.kind === 'plugin') {
          notices.push({
            plugin: String(source.plugin ?? ''),
            text: textOfBlocks(data.content),
            summary: typeof source.summary === 'string' ? source.summary : undefined,
          });
        }
        break;
      }
      case 'approval/asked':
        approvalsAsked.push({
          toolName: String(data.toolName),
          callId: typeof data.callId === 'string' ? data.callId : undefined,
          reason: typeof data.reason === 'string' ? data.reason : undefined,
        });
        break;
      case 'approval/decided':
        approvalsDecided.push(String(data.outcome));
        break;
      case 'turn/end':
        turnsEnded += 1;
        break;
      default:
        break;
    }
  }

  const steps: ToolStep[] = order.map((callId) => {
    const call = calls.get(callId) ?? { name: '', arguments: {} };
    const result = results.get(callId);
    return {
      callId,
      name: call.name,
      arguments: call.arguments,
      settled: result !== undefined,
      isError: result?.isError ?? false,
      text: result?.text ?? '',
    };
  });
  return { path, records, steps, notices, approvalsAsked, approvalsDecided, turnsEnded };
}
