/**
 * Decision P5, the no-throw half: hostile arguments, commands, results, pipeline
 * objects and step payloads go through every hook, and hostile values through
 * every lib entry point. Nothing throws or rejects, every decision is
 * well-formed, and a call the plugin cannot read still gets a sensible decision
 * (docs/robustness.md): an unreadable call or agent is transparent, while
 * hostile-but-readable arguments are fingerprinted and counted like any others.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import port from '../../src/index.js';
import { readCall } from '../../src/lib/call/read.js';
import { canonical, stripDecoys } from '../../src/lib/call/canonical.js';
import { extractSink, firstVerb, isGenericSink, stripVolatileFlags } from '../../src/lib/shell/command.js';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { classifyFailure } from '../../src/lib/result/failure.js';
import { describeFailure } from '../../src/lib/text/failure.js';
import { fingerprints, limitFor, measureOf, measureRank } from '../../src/lib/call/fingerprint.js';
import { isShell } from '../../src/lib/call/read.js';
import { identityKey } from '../../src/lib/call/identity.js';
import { markAll } from '../../src/lib/call/mark.js';
import { defang, preview, renderHead, renderResult } from '../../src/lib/text/message.js';
import { summaryLabel } from '../../src/lib/text/notice.js';
import { compileScope } from '../../src/lib/policy/scope.js';
import { tokenize } from '../../src/lib/shell/tokenize.js';
import { extractUrls, isLocalHost, normUrl, siteOf } from '../../src/lib/call/url.js';
import { drive } from './drive.js';
import { fuzzHostile } from './fuzz.js';
import { captureHooks, type Hooks, type PluginLike } from './hooks.js';
import { HOSTILE_ARGUMENTS, HOSTILE_COMMANDS, HOSTILE_RESULTS, revokedProxy, throwingProxy } from './shapes.js';

const MB = 1 << 20;
/** Every stage within four calls: warn at 1, summary at 2, gate at 3, failure warning at 1, failure gate at 2. */
const TIGHT = { window: 4, warnAt: 1, summarizeAt: 2, failWarnAt: 1, failLimit: 2, limits: { exact: 3, cmd: 3, net: 3, sink: 3, host: 3 } };
const DENY = { ...TIGHT, onLimit: 'deny' };
const ASK = { ...TIGHT, onLimit: 'ask' };

const plugin = port as PluginLike;
const ok = (): unknown => ({ isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: 'ok' }] });
const failed = (): unknown => ({ isError: false, value: { exitCode: 1 }, content: [{ type: 'text', text: 'boom\n[exit code: 1]' }] });

/** `times` calls of one shape on a fresh agent; returns the denials seen. */
async function repeatCall(hooks: Hooks, name: string, args: unknown, times: number, result: (i: number) => unknown): Promise<(string | undefined)[]> {
  const agent = {};
  const denials: (string | undefined)[] = [];
  for (let i = 0; i < times; i += 1) {
    const outcome = await drive(hooks, { callId: `c${i}`, name, arguments: args, agent }, result(i), { answer: i % 2 === 0 ? 'approve' : 'decline' });
    denials.push(outcome.denial);
  }
  return denials;
}

describe('hostile arguments reach every hook', () => {
  const heavy = new Set(['100,000-deep arrays', '100,000-deep objects', '100,000 keys', 'a 64 KB typed array']);
  for (const [label, make] of HOSTILE_ARGUMENTS) {
    test(label, async () => {
      const args = make();
      const tools = heavy.has(label) ? ['write'] : ['bash', 'write', 'web_fetch'];
      for (const config of heavy.has(label) ? [DENY] : [DENY, ASK]) {
        const hooks = captureHooks(plugin, config);
        for (const name of tools) {
          const denials = await repeatCall(hooks, name, args, heavy.has(label) ? 3 : 4, (i) => (i % 2 === 0 ? failed() : ok()));
          // Readable enough to fingerprint: the same hostile arguments are counted, so a repeat is stopped.
          if (config === DENY) assert.ok(denials.slice(0, 3).some((d) => d !== undefined), `${label} via ${name}: counted and stopped`);
        }
        hooks.dispose();
      }
    });
  }
});

describe('hostile commands reach every hook', () => {
  for (const [label, make] of HOSTILE_COMMANDS) {
    test(`${label} (64 KB)`, async () => {
      const hooks = captureHooks(plugin, DENY);
      const denials = await repeatCall(hooks, 'bash', { command: make(MB / 16) }, 3, (i) => (i === 0 ? failed() : ok()));
      assert.ok(denials[2] !== undefined, 'the third identical command is stopped');
    });
  }
  test('10 MB commands: one long word and NUL bytes', async () => {
    const hooks = captureHooks(plugin, DENY);
    for (const label of ['one long word', 'NUL bytes']) {
      const make = HOSTILE_COMMANDS.find(([name]) => name === label)?.[1] as (n: number) => string;
      await repeatCall(hooks, 'bash', { command: make(10 * MB) }, 1, ok);
    }
  });
  test('URL tools with hostile URLs', async () => {
    const urls = [
      `https://${'a'.repeat(100_000)}.com/`,
      `https://${'a.'.repeat(50_000)}com/`,
      'https://user:pa%40ss@[2001:db8::1]:8443/x?utm_source=a&b=%ZZ',
      'http://[fe80::1%25eth0]/',
      'https://bücher.example/ä/\ud800',
      'https://\u0000/',
      `${'a'.repeat(100_000)}://x`,
      `https://a.com/${'/'.repeat(100_000)}`,
      `https://a.com/?${'a=1&'.repeat(20_000)}`,
      ' '.repeat(100_000),
    ];
    const hooks = captureHooks(plugin, DENY);
    for (const url of urls) await repeatCall(hooks, 'web_fetch', { url, description: 'x' }, 3, ok);
  });
});

describe('hostile results reach post-execute', () => {
  for (const [label, make] of HOSTILE_RESULTS) {
    test(label, async () => {
      const hooks = captureHooks(plugin, ASK);
      const result = make(MB);
      for (const name of ['bash', 'write']) {
        const args = name === 'bash' ? { command: 'curl -sL -o /dev/null -w "%{http_code}" https://a.com' } : { path: '/w/x' };
        await repeatCall(hooks, name, args, 4, () => result);
      }
    });
  }
  test('a denial quotes a hostile previous result within resultPreviewChars', async () => {
    const hooks = captureHooks(plugin, DENY);
    const agent = {};
    const huge = { content: Array.from({ length: 1000 }, () => ({ type: 'text', text: '\n'.repeat(1000) })) };
    const args = { command: 'ls' };
    await drive(hooks, { name: 'bash', arguments: args, agent }, huge);
    await drive(hooks, { name: 'bash', arguments: args, agent }, huge);
    const third = await drive(hooks, { name: 'bash', arguments: args, agent }, huge);
    assert.ok(third.denial !== undefined && third.denial.length < 3000, 'the quoted result is cut');
  });
});

describe('a call the plugin cannot read is transparent', () => {
  const agent = {};
  const unreadable: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a string', 'bash ls'],
    ['a number', 7],
    ['a Proxy whose traps throw', throwingProxy({ name: 'bash', arguments: { command: 'ls' }, agent })],
    ['a revoked Proxy', revokedProxy()],
    ['no agent', { name: 'bash', arguments: { command: 'ls' } }],
    ['a number agent', { name: 'bash', arguments: { command: 'ls' }, agent: 1 }],
    ['a string agent', { name: 'bash', arguments: { command: 'ls' }, agent: 'agent-1' }],
    ['a throwing agent getter', Object.defineProperty({ name: 'bash', arguments: { command: 'ls' } }, 'agent', { get() { throw new Error('x'); } })],
    ['a throwing name getter', Object.defineProperty({ arguments: { command: 'ls' }, agent }, 'name', { get() { throw new Error('x'); } })],
    ['a non-string name', { name: 42, arguments: { command: 'ls' }, agent }],
    ['a symbol name', { name: Symbol('bash'), arguments: { command: 'ls' }, agent }],
    ['an empty name', { name: '', toolName: 'bash', arguments: { command: 'ls' }, agent }],
    ['an excluded tool', { name: 'todo_write', arguments: {}, agent }],
  ];
  for (const [label, exec] of unreadable) {
    test(label, async () => {
      const hooks = captureHooks(plugin, DENY);
      for (let i = 0; i < 6; i += 1) {
        const outcome = await drive(hooks, exec, i % 2 === 0 ? failed() : ok());
        assert.equal(outcome.denial, undefined, 'allowed');
        assert.equal(outcome.notices.length, 0, 'no notices');
      }
    });
  }
  test('the host spellings still count (exec.exec.agent, toolName, args)', async () => {
    const hooks = captureHooks(plugin, DENY);
    const denials: (string | undefined)[] = [];
    for (let i = 0; i < 3; i += 1) denials.push((await drive(hooks, { toolName: 'bash', args: { command: 'ls' }, exec: { agent } }, ok())).denial);
    assert.ok(denials[2]?.startsWith('REPEAT_TOOL_BLOCKED:'), 'the third call in host spellings is denied');
  });
});

describe('hostile agent/pre-step payloads', () => {
  const agent = {};
  const human = { role: 'user', content: [], source: { kind: 'user' } };
  const payloads: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a string', 'step'],
    ['a Proxy whose traps throw', throwingProxy({ agent })],
    ['a non-object agent', { agent: 'a', messages: [human] }],
    ['a Proxy agent', { agent: throwingProxy({}), messages: [human] }],
    ['messages not an array', { agent, messages: { 0: human, length: 1 } }],
    ['messages as a Proxy', { agent, messages: throwingProxy([]) }],
    ['messages holding nulls and throwing getters', { agent, messages: [null, 1, Object.defineProperty({}, 'source', { get() { throw new Error('x'); } }), throwingProxy({})] }],
    ['100,000 messages', { agent, messages: Array.from({ length: 100_000 }, () => ({ source: { kind: 'plugin' } })) }],
  ];
  for (const [label, payload] of payloads) {
    test(label, async () => {
      const hooks = captureHooks(plugin, DENY);
      await repeatCall(hooks, 'bash', { command: 'ls' }, 2, ok);
      hooks.step(payload);
    });
  }
  test('a human message after hostile entries still resets the agent', async () => {
    const hooks = captureHooks(plugin, DENY);
    const call = { name: 'bash', arguments: { command: 'ls' }, agent };
    for (let i = 0; i < 3; i += 1) await drive(hooks, { ...call }, ok());
    assert.ok((await drive(hooks, { ...call }, ok())).denial !== undefined, 'the fourth call is denied before the human message');
    hooks.step({ agent, messages: [null, throwingProxy({}), human] });
    assert.equal((await drive(hooks, { ...call }, ok())).denial, undefined);
  });
});

describe('hostile agent/pre-step payloads and decisions, duplicated-context track on', () => {
  const agent = {};
  const big = 'a large injected text that repeats, long enough to be fingerprinted by the track. '.repeat(4);
  const claimed = (id: string, content: unknown, source: unknown = { kind: 'plugin', plugin: 'p' }) => ({ id, role: 'user', content, source });
  const enter = (messages: unknown) => () => Promise.resolve({ kind: 'enter', messages });
  const payloads: [string, unknown, () => unknown][] = [
    ['null payload', null, enter([])],
    ['a Proxy payload whose traps throw', throwingProxy({ agent }), enter([])],
    ['a Proxy agent', { agent: throwingProxy({}), messages: [claimed('a', [{ type: 'text', text: big }])] }, enter([])],
    ['messages as a Proxy', { agent, messages: throwingProxy([]) }, enter([])],
    ['content as a Proxy, text getters that throw', { agent, messages: [claimed('b', throwingProxy([])), claimed('c', [Object.defineProperty({ type: 'text' }, 'text', { get() { throw new Error('x'); } })])] }, enter([])],
    ['ids, sources and blocks of every wrong type', { agent, messages: [claimed(7 as never, [{ type: 'text', text: 1 }, null, 'text', { type: 'image' }], 'user'), { id: 'x'.repeat(1 << 20), content: big }] }, enter([])],
    ['a next() that answers undefined', { agent, messages: [claimed('d', [{ type: 'text', text: big }])] }, () => undefined],
    ['an enter decision whose messages getter throws', { agent, messages: [claimed('e', [{ type: 'text', text: big }])] }, () => Promise.resolve(Object.defineProperty({ kind: 'enter' }, 'messages', { get() { throw new Error('x'); } }))],
    ['an enter decision whose messages are not an array', { agent, messages: [claimed('f', [{ type: 'text', text: big }])] }, () => Promise.resolve({ kind: 'enter', messages: 'none' })],
  ];
  for (const [label, payload, next] of payloads) {
    test(label, async () => {
      const hooks = captureHooks(plugin, { ...DENY, duplicateText: { threshold: 2 } });
      for (let i = 0; i < 3; i += 1) await hooks.step(payload, next);
    });
  }
  test('a hostile entry beside three real copies: the copies still earn one notice, the hostile entry enters unchanged', async () => {
    const hooks = captureHooks(plugin, { ...DENY, duplicateText: {} });
    const hostile = throwingProxy({});
    const messages = [hostile, claimed('g1', [{ type: 'text', text: big }]), claimed('g2', [{ type: 'text', text: big }]), claimed('g3', [{ type: 'text', text: `${big}  \r\n` }])];
    const decision = (await hooks.step({ agent: {}, messages }, enter(messages))) as { kind: string; messages: unknown[] };
    assert.equal(decision.kind, 'enter');
    assert.equal(decision.messages.length, 5);
    assert.equal(decision.messages[0], hostile);
    assert.match(String((decision.messages[4] as { content: { text: string }[] }).content[0]?.text), /^DUPLICATED_CONTEXT: /);
  });
});

describe('seeded fuzz: random hostile mixes through every hook', () => {
  test('300 calls over 3 agents, seed 5', async () => {
    await fuzzHostile(plugin, {
      seed: 5,
      config: ASK,
      odds: [0.35, 0.6, 0.7],
      tools: ['write', 'web_fetch', 'bash', 'MyFetcher'],
      unreadable: () => [null, 'x', throwingProxy({}), { name: 'bash', agent: 3 }],
      alphabet: ['ls', 'curl https://a.com/x', 'python3 a.py'],
      describe: true,
    });
  });
});

describe('every lib entry point takes hostile values', () => {
  const strings = [
    '', '\u0000'.repeat(1000), '\ud800\udc00\ud800', '\\'.repeat(MB / 4), `"${"'".repeat(1000)}`, 'x'.repeat(MB / 4),
    `curl ${'https://a.com/ '.repeat(20_000)}`, `https://${'a'.repeat(100_000)}/`, '\n'.repeat(MB / 4), 'a.'.repeat(MB / 8),
  ];
  const values: unknown[] = [undefined, null, 0, Number.NaN, 1n, Symbol('s'), () => 1, {}, [], throwingProxy({}), revokedProxy(), ...strings];
  test('string entry points', () => {
    for (const text of strings) {
      tokenize(text);
      firstVerb(text);
      stripVolatileFlags(text);
      extractSink(text);
      extractUrls(text);
      normUrl(text);
      siteOf(text);
      isShell(text);
      measureOf(text);
      measureRank(text);
      limitFor(text, DEFAULTS.limits);
      identityKey(text);
      defang(text);
      summaryLabel(text);
      markAll([text, `exact:x:${text}`], DEFAULTS);
      fingerprints({ name: 'bash', args: { command: text } }, DEFAULTS);
      fingerprints({ name: 'web_fetch', args: { url: text } }, DEFAULTS);
      describeFailure({ reason: 'exception', detail: text });
      classifyFailure({ content: [{ type: 'text', text }] }, { shell: true, command: '-w %{http_code}' });
    }
  });
  test('unknown-typed entry points', () => {
    const scope = compileScope(DEFAULTS);
    for (const value of values) {
      canonical(value);
      canonical({ value, list: [value] });
      stripDecoys('bash', value, DEFAULTS.ignoreArgs);
      readCall(value);
      readCall({ name: value, arguments: value, agent: value });
      isLocalHost(value);
      isGenericSink(value);
      extractUrls(value);
      normUrl(value, value as Record<string, string>);
      scope(value);
      preview(value, 10);
      renderHead(value, 10);
      renderResult({ content: [value, { type: 'text', text: value }] });
      classifyFailure(value, { shell: true });
      classifyFailure({ isError: true, error: value });
      classifyFailure({ value: { exitCode: value, timedOut: true, timeoutMs: value, signal: value, statusCode: value, sandbox: value } });
      fingerprints({ name: 'bash', args: value }, DEFAULTS);
      fingerprints({ name: 'web_fetch', args: { url: value, href: value } }, DEFAULTS);
    }
  });
  test('the one function that throws on purpose is config resolution', () => {
    for (const value of [null, 5, 'x', [], { window: 1n }, { limits: throwingProxy({}) }, throwingProxy({})]) {
      try {
        resolveConfig(value);
      } catch (error) {
        // A bad config fails loudly at load with the plugin's prefix; a throwing Proxy is the host's own fault.
        if (!(error instanceof Error && (error.message.startsWith('repeat-tool-breaker: ') || error.message === 'trap'))) throw error;
      }
    }
  });
});
