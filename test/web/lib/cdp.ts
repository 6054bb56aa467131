/**
 * A small Chrome DevTools Protocol client over Node 22's built-in WebSocket:
 * enough to drive one headless Chromium page the way a person would (real
 * mouse clicks and key presses, typed text), read the page, and take
 * screenshots. No automation package: the protocol is a JSON message per
 * command, and the handful of commands the browser suite needs fits here.
 *
 * Every wait polls a condition against a deadline; nothing sleeps for a fixed
 * time and calls that an assertion.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The part of the WHATWG WebSocket this client uses (Node 22 has it as a global; @types/node 20 does not declare it). */
interface Socket {
  readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
type SocketConstructor = new (url: string) => Socket;

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
  method: string;
}

export interface LaunchOptions {
  /** A fresh directory for the profile; Chromium writes `DevToolsActivePort` into it. */
  readonly userDataDir: string;
  readonly width?: number;
  readonly height?: number;
  /** How long to wait for the DevTools endpoint. */
  readonly timeoutMs?: number;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Chromium's flags that work on a 2-core container without a display (see the host README). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--remote-debugging-port=0',
];

export function chromiumPath(): string {
  for (const candidate of [process.env.CHROMIUM_BIN, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    if (candidate !== undefined && candidate !== '' && existsSync(candidate)) return candidate;
  }
  throw new Error('chromium is not installed: `apt-get install -y --no-install-recommends chromium` (set CHROMIUM_BIN to use another build)');
}

/** Signals a process group led by `pid` (a child spawned `detached`); a group already gone is fine. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already exited.
  }
}

/** Polls `check` until it returns something other than `undefined`/`false`, or throws naming `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? ` (last error: ${last.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** One CDP connection; commands go to the browser or, with a session id, to an attached page. */
class Connection {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(method: string, params: Record<string, unknown>, sessionId: string | undefined) => void>();
  private closed = false;

  constructor(private readonly socket: Socket) {
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('close', () => {
      this.closed = true;
      for (const [, waiting] of this.pending) waiting.reject(new Error(`CDP connection closed during ${waiting.method}`));
      this.pending.clear();
    });
  }

  static async open(url: string, timeoutMs: number): Promise<Connection> {
    const Ctor = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
    if (Ctor === undefined) throw new Error('this Node has no global WebSocket: the browser suite runs under Node 22 (test/host)');
    const socket = new Ctor(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`CDP socket ${url} did not open in ${timeoutMs} ms`)), timeoutMs);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`CDP socket ${url} failed to open`));
      });
    });
    return new Connection(socket);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new Error(`CDP connection closed before ${method}`));
    const id = this.next++;
    const message = { id, method, params, ...(sessionId === undefined ? {} : { sessionId }) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.socket.send(JSON.stringify(message));
    });
  }

  on(listener: (method: string, params: Record<string, unknown>, sessionId: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    if (!this.closed) this.socket.close();
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      result?: Record<string, unknown>;
      error?: { message?: string };
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      if (waiting === undefined) return;
      this.pending.delete(message.id);
      if (message.error !== undefined) waiting.reject(new Error(`CDP ${waiting.method}: ${message.error.message ?? 'error'}`));
      else waiting.resolve(message.result ?? {});
      return;
    }
    if (message.method !== undefined) {
      for (const listener of this.listeners) listener(message.method, message.params ?? {}, message.sessionId);
    }
  }
}

const KEYS: Readonly<Record<string, { key: string; code: string; keyCode: number; text?: string }>> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
};

/** The page of a launched browser: evaluation, input and screenshots. */
export class Page {
  /** Console errors and uncaught exceptions the page reported, for failure diagnostics. */
  readonly errors: string[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly sessionId: string,
  ) {
    connection.on((method, params, session) => {
      if (session !== sessionId) return;
      if (method === 'Runtime.exceptionThrown') {
        const details = params.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
        this.errors.push(`exception: ${details?.exception?.description ?? details?.text ?? 'unknown'}`);
      } else if (method === 'Runtime.consoleAPICalled' && params.type === 'error') {
        const args = (params.args as { value?: unknown; description?: string }[] | undefined) ?? [];
        this.errors.push(`console.error: ${args.map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? ''))).join(' ')}`);
      }
    });
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.connection.send(method, params, this.sessionId);
  }

  async navigate(url: string): Promise<void> {
    await this.send('Page.navigate', { url });
  }

  /** Evaluates an expression in the page (awaiting a promise) and returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    const thrown = result.exceptionDetails as { exception?: { description?: string }; text?: string } | undefined;
    if (thrown !== undefined) throw new Error(`page threw: ${thrown.exception?.description ?? thrown.text ?? 'unknown'}`);
    return (result.result as { value?: T } | undefined)?.value as T;
  }

  /** Polls a page expression until it yields a truthy JSON value. */
  waitFor<T>(what: string, expression: string, timeoutMs = 15_000): Promise<T> {
    return until(what, () => this.evaluate<T | undefined | false | null>(expression).then((v) => (v === null ? undefined : v)), timeoutMs);
  }

  /** The viewport rectangle of the first element matching `selector` (scrolled into view), or undefined. */
  async rect(selector: string): Promise<Rect | undefined> {
    return this.evaluate<Rect | undefined>(`(() => {
      const el = document.querySelector(${JSON.stringify(selector)});
      if (!el) return undefined;
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : undefined;
    })()`);
  }

  /** Clicks the centre of the element matching `selector` with a real mouse press. */
  async click(selector: string, timeoutMs = 15_000): Promise<void> {
    const box = await until(`a visible ${selector}`, () => this.rect(selector), timeoutMs);
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
  }

  /**
   * Marks the first element whose own text equals `text` (trimmed), among
   * `selector` matches, with `data-cdp-target`, and returns that selector.
   */
  async byText(selector: string, text: string, timeoutMs = 15_000): Promise<string> {
    const mark = `cdp-${Math.random().toString(36).slice(2, 10)}`;
    await this.waitFor(`${selector} with text ${JSON.stringify(text)}`, `(() => {
      const el = [...document.querySelectorAll(${JSON.stringify(selector)})]
        .find((e) => (e.textContent ?? '').trim() === ${JSON.stringify(text)} && e.getClientRects().length > 0);
      if (!el) return false;
      el.setAttribute('data-cdp-target', ${JSON.stringify(mark)});
      return true;
    })()`, timeoutMs);
    return `[data-cdp-target="${mark}"]`;
  }

  async clickText(selector: string, text: string, timeoutMs = 15_000): Promise<void> {
    await this.click(await this.byText(selector, text, timeoutMs), timeoutMs);
  }

  /** Focuses an input, selects its text and types `text` over it, as a person would. */
  async fill(selector: string, text: string): Promise<void> {
    await this.click(selector);
    await this.evaluate(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); el.focus(); el.select?.(); })()`);
    if (text === '') await this.press('Backspace');
    else await this.send('Input.insertText', { text });
  }

  async press(name: keyof typeof KEYS, modifiers = 0): Promise<void> {
    const key = KEYS[name];
    if (key === undefined) throw new Error(`no key ${name}`);
    const base = { key: key.key, code: key.code, windowsVirtualKeyCode: key.keyCode, nativeVirtualKeyCode: key.keyCode, modifiers };
    await this.send('Input.dispatchKeyEvent', { type: key.text === undefined ? 'rawKeyDown' : 'keyDown', ...base, ...(key.text === undefined ? {} : { text: key.text }) });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }

  /** A description of the focused element: `tag#id[aria-label]` and its text, for keyboard checks. */
  focused(): Promise<{ tag: string; id: string; label: string; text: string; inCard: boolean }> {
    return this.evaluate(`(() => {
      const el = document.activeElement;
      if (!el) return { tag: '', id: '', label: '', text: '', inCard: false };
      return { tag: el.tagName.toLowerCase(), id: el.id, label: el.getAttribute('aria-label') ?? '', text: (el.textContent ?? '').trim().slice(0, 80), inCard: !!el.closest('[data-rtb-card]') };
    })()`);
  }

  async setColorScheme(scheme: 'light' | 'dark'): Promise<void> {
    await this.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] });
  }

  /** Writes a PNG of the viewport, or of `selector`'s box plus `margin` pixels. */
  async screenshot(file: string, selector?: string, margin = 8): Promise<void> {
    let clip: Record<string, number> | undefined;
    if (selector !== undefined) {
      const box = await until(`a visible ${selector} to screenshot`, () => this.rect(selector), 10_000);
      const metrics = await this.send('Page.getLayoutMetrics');
      const viewport = metrics.cssLayoutViewport as { clientWidth: number; clientHeight: number };
      const x = Math.max(0, box.x - margin);
      const y = Math.max(0, box.y - margin);
      clip = {
        x,
        y,
        width: Math.min(viewport.clientWidth - x, box.width + 2 * margin),
        height: Math.min(viewport.clientHeight - y, box.height + 2 * margin),
        scale: 1,
      };
    }
    const shot = await this.send('Page.captureScreenshot', { format: 'png', ...(clip === undefined ? {} : { clip }) });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, Buffer.from(String(shot.data), 'base64'));
  }
}

/** A running headless Chromium with one page attached. */
export interface Browser {
  readonly page: Page;
  readonly pid: number | undefined;
  close(): Promise<void>;
}

/** Starts Chromium, reads its DevTools port from `DevToolsActivePort`, and attaches to a fresh page. */
export async function launchBrowser(options: LaunchOptions): Promise<Browser> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  mkdirSync(options.userDataDir, { recursive: true });
  const args = [...CHROMIUM_FLAGS, `--user-data-dir=${options.userDataDir}`, `--window-size=${options.width ?? 1280},${options.height ?? 900}`, 'about:blank'];
  // Its own process group, so stopping it by its id also stops its renderer and helper processes.
  const child: ChildProcess = spawn(chromiumPath(), args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    if (stderr.length < 20_000) stderr += c.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const portFile = join(options.userDataDir, 'DevToolsActivePort');
    const [port, path] = await until(
      'Chromium to write DevToolsActivePort',
      () => {
        if (child.exitCode !== null) throw new Error(`chromium exited ${child.exitCode}: ${stderr.slice(-2000)}`);
        if (!existsSync(portFile)) return undefined;
        const lines = readFileSync(portFile, 'utf8').split('\n');
        return lines.length >= 2 && lines[0] !== '' && lines[1] !== '' ? [lines[0]!, lines[1]!] as const : undefined;
      },
      timeoutMs,
    );
    const connection = await Connection.open(`ws://127.0.0.1:${port}${path}`, timeoutMs);
    const created = await connection.send('Target.createTarget', { url: 'about:blank' });
    const attached = await connection.send('Target.attachToTarget', { targetId: created.targetId, flatten: true });
    const page = new Page(connection, String(attached.sessionId));
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width: options.width ?? 1280, height: options.height ?? 900, deviceScaleFactor: 1, mobile: false });
    return {
      page,
      pid: child.pid,
      close: async () => {
        connection.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
