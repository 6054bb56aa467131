/**
 * A scripted, OpenAI-compatible streaming chat-completions server for the
 * full-boot suite and the recorder. It plays the model: each request that
 * carries `tools` is answered with the next scripted step — one call, or
 * several calls in one answer — chosen by how many tool-calling answers the
 * conversation already holds (so an adapter retry gets the same answer), and
 * with a final text once the script is spent. Every answer streams the way a
 * real provider's does (`./stream.ts`): reasoning deltas, arguments cut into
 * pieces at seeded points, a usage chunk, `[DONE]`. A request without `tools`
 * is the session-title request and gets a short text. It also serves a
 * paged `GET /items?page=N` for the tools to fetch, and counts the hits.
 *
 * Safety: it listens on 127.0.0.1 only, on an ephemeral port, and closes
 * itself after `maxRequests` requests or `maxSeconds` seconds, whichever
 * comes first, so a hung `dsh` can never keep it (or the test run) alive.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { DEFAULT_STREAMING, textDeltas, toolStepDeltas, type Delta, type ScriptedCall, type ScriptedStep, type Streaming } from './stream.js';

export type { ScriptedCall, ScriptedStep, Streaming } from './stream.js';

export interface MockModelOptions {
  /** The model steps in order (a call, or a list of calls in one answer); a function receives the server's base URL. */
  readonly script: readonly ScriptedStep[] | ((url: string) => readonly ScriptedStep[]);
  /** How answers are streamed: the seed of the cut points, the pieces per call's arguments, reasoning on or off. */
  readonly streaming?: Streaming;
  /** The text of the final answer, sent once every scripted call has a result. */
  readonly finalText?: string;
  /**
   * Chooses each step's call from the conversation instead of `script`
   * (`undefined`: answer with `finalText`). For sessions with several human
   * messages, where the count of tool results alone cannot say what comes next.
   */
  readonly respond?: (conversation: readonly ConversationMessage[]) => ScriptedCall | undefined;
  /** Hard stop: close after this many requests (default 200). */
  readonly maxRequests?: number;
  /** Hard stop: close after this many seconds (default 120). */
  readonly maxSeconds?: number;
}

/** One message of a conversation the model is sent, its content flattened to text. */
export interface ConversationMessage {
  readonly role: string;
  readonly text: string;
}

/** What the model was shown for one tool call: the `role: tool` message. */
export interface SeenToolResult {
  readonly toolCallId: string;
  readonly content: string;
}

export interface MockModel {
  /** The base URL to hand DSH as `DEEPSEEK_BASE_URL`. */
  readonly url: string;
  /** Number of requests served so far (chat completions and pages). */
  requests(): number;
  /** The `page` of every `GET /items?page=N` served, in order. */
  pageHits(): string[];
  /** The tool results in the longest conversation the model has been sent. */
  seenToolResults(): SeenToolResult[];
  /** Every non-tool, non-system user message text the model was sent (plugin notices land here). */
  seenUserTexts(): string[];
  close(): Promise<void>;
}

interface WireMessage {
  role?: unknown;
  content?: unknown;
  tool_call_id?: unknown;
  tool_calls?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('\n');
  }
  return '';
}

function chunk({ delta, finishReason }: Delta): string {
  const payload = {
    id: 'mock-completion',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'mock-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

const USAGE =
  `data: ${JSON.stringify({
    id: 'mock-completion',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'mock-model',
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  })}\n\n`;

function stream(res: ServerResponse, deltas: readonly Delta[]): void {
  for (const delta of deltas) res.write(chunk(delta));
  res.write(USAGE);
  res.end('data: [DONE]\n\n');
}

export async function startMockModel(options: MockModelOptions): Promise<MockModel> {
  const maxRequests = options.maxRequests ?? 200;
  const maxSeconds = options.maxSeconds ?? 120;
  const finalText = options.finalText ?? 'Done.';
  let served = 0;
  const pageHits: string[] = [];
  let longest: WireMessage[] = [];
  let closing: Promise<void> | undefined;
  let script: readonly ScriptedStep[] = [];
  const streaming = options.streaming ?? DEFAULT_STREAMING;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      served += 1;
      if (served >= maxRequests) void close();
      if (req.method === 'GET' && (req.url ?? '').startsWith('/items')) {
        // A paged endpoint for the tools to fetch: `GET /items?page=N`.
        const page = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('page') ?? '1';
        pageHits.push(page);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`items page ${page}\n`);
        return;
      }
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `mock model: no route ${req.method} ${req.url}` } }));
        return;
      }
      let body: { tools?: unknown; messages?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'mock model: bad JSON' } }));
        return;
      }
      const messages = Array.isArray(body.messages) ? (body.messages as WireMessage[]) : [];
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
      if (!hasTools) {
        stream(res, [{ delta: { role: 'assistant', content: 'Mock session' }, finishReason: 'stop' }]);
        return;
      }
      if (messages.length >= longest.length) longest = messages;
      // The answers so far that called tools: the index of the next scripted step.
      const step = messages.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0).length;
      const next =
        options.respond === undefined ? script[step] : options.respond(messages.map((m) => ({ role: String(m.role), text: textOf(m.content) })));
      stream(res, next === undefined ? textDeltas(finalText, step, streaming) : toolStepDeltas(next, step, streaming));
    });
  });

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.close(() => resolve());
      server.closeIdleConnections();
      // Let in-flight streams finish writing; then drop whatever is left.
      setTimeout(() => server.closeAllConnections(), 200).unref();
    });
    return closing;
  };
  const timer = setTimeout(() => void close(), maxSeconds * 1000);
  timer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  script = typeof options.script === 'function' ? options.script(url) : options.script;
  return {
    url,
    requests: () => served,
    pageHits: () => [...pageHits],
    seenToolResults: () =>
      longest
        .filter((m) => m.role === 'tool')
        .map((m) => ({ toolCallId: String(m.tool_call_id ?? ''), content: textOf(m.content) })),
    seenUserTexts: () => longest.filter((m) => m.role === 'user').map((m) => textOf(m.content)),
    close,
  };
}
