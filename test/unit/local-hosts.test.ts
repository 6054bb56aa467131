/**
 * Local addresses: which hosts count as local, and what `localHosts` and
 * `includeLocal` do to the fingerprints and to the gate (contract §2.8).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { fingerprints } from '../../src/lib/call/fingerprint.js';
import { bash, deniedAt, defaultCap, hitLines, newHost } from '../support/session.js';

const run = (name: string, args: unknown, config: unknown = {}) => fingerprints({ name, args }, resolveConfig(config));
const fpsOf = (command: string, config: unknown = {}): string[] => run('bash', { command }, config).fps;

describe('which hosts are local', () => {
  const local = ['localhost', 'api.localhost', '127.0.0.1', '127.8.9.10', '10.1.2.3', '192.168.111.90', '172.16.0.1', '172.31.255.255', '169.254.1.1', '0.0.0.0', '127.example.com'];
  const publicHosts = ['example.com', '172.32.0.1', '172.15.0.1', '100.64.0.1', '8.8.8.8', '192.169.0.1', 'notlocalhost.com'];

  for (const host of local) {
    test(`${host} is local, so it gets no host: by default`, () => {
      const fps = fpsOf(`curl -s http://${host}:8080/x`);
      assert.ok(!fps.some((fp) => fp.startsWith('host:')), fps.join('  '));
      assert.ok(fps.some((fp) => fp.startsWith('net:')), 'net: stays');
    });
  }

  test('public hosts, including CGNAT and the edges of the private ranges, get host:', () => {
    for (const host of publicHosts) {
      assert.ok(fpsOf(`curl -s http://${host}/x`).includes(`host:${host}`), host);
    }
  });
});

describe('includeLocal', () => {
  test('E13: by default a local host keeps net: and site: and loses only host:', () => {
    const { fps, local } = run('bash', { command: 'curl -s http://localhost:3000/x' });
    assert.deepEqual(fps.slice(-2), ['net:localhost/x', 'site:localhost']);
    assert.equal(local, true);
  });

  test('E14: includeLocal: true gives a local host its host: fingerprint', () => {
    assert.ok(fpsOf('curl -s http://localhost:3000/x', { includeLocal: true }).includes('host:localhost'), 'the local host gets host:');
  });

  test('distinct local paths never trip host: by default', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const outcomes = [];
    for (let i = 1; i <= defaultCap('host') + 4; i += 1) outcomes.push(await host.call({ agent, ...bash(`curl -s http://localhost:3000/item/${i}`) }));
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('with includeLocal: true, distinct local paths trip host:localhost at its cap', async () => {
    const host = newHost({ onLimit: 'deny', includeLocal: true });
    const agent = {};
    const cap = defaultCap('host');
    const outcomes = [];
    for (let i = 1; i <= cap; i += 1) outcomes.push(await host.call({ agent, ...bash(`curl -s http://localhost:3000/item/${i}`) }));
    assert.deepEqual(deniedAt(outcomes), [cap]);
    assert.deepEqual(hitLines(outcomes[cap - 1]?.denyReason), [`- host:localhost ${cap}/${cap}`]);
  });
});

describe('localHosts', () => {
  test('E12: localHosts: allow leaves a purely local shell call only exact: and cmd:', () => {
    const { fps, local } = run('bash', { command: 'curl -s http://127.0.0.1:18999/x -o /tmp/o' }, { localHosts: 'allow' });
    assert.deepEqual(fps, ['exact:bash:{"command":"curl -s http://127.0.0.1:18999/x -o /tmp/o"}', 'cmd:curl:curl http://127.0.0.1:18999/x -o /tmp/o']);
    assert.equal(local, false);
  });

  test('E10: a call with one local and one public URL is not local, even under localHosts: allow', () => {
    const command = 'curl -s http://127.0.0.1:18999/x https://example.com/y';
    const allowed = run('bash', { command }, { localHosts: 'allow' });
    assert.equal(allowed.local, false);
    assert.deepEqual(allowed.fps, fpsOf(command));
    assert.ok(allowed.fps.includes('net:127.0.0.1/x'), 'the local URL still counts as net:');
    assert.ok(allowed.fps.includes('host:example.com'), 'the public URL gets host:');
    assert.ok(allowed.fps.includes('verb:curl'), 'the call is not local, so verb: stays');
  });

  test('a shell call with no URL is never local, so it still emits verb: and sink: under localHosts: allow', () => {
    const { fps, local } = run('bash', { command: 'echo hi > /tmp/x' }, { localHosts: 'allow' });
    assert.deepEqual(fps, ['exact:bash:{"command":"echo hi > /tmp/x"}', 'verb:echo', 'cmd:echo:echo hi > /tmp/x', 'sink:/tmp/x']);
    assert.equal(local, false);
  });

  test('a URL tool on a local host emits only exact: under localHosts: allow', () => {
    const allowed = run('web_fetch', { url: 'http://localhost:3000/a' }, { localHosts: 'allow' });
    assert.deepEqual(allowed.fps, ['exact:web_fetch:{"url":"http://localhost:3000/a"}']);
    assert.equal(allowed.local, false);
    const denied = run('web_fetch', { url: 'http://localhost:3000/a' });
    assert.deepEqual(denied.fps, ['exact:web_fetch:{"url":"http://localhost:3000/a"}', 'net:localhost/a', 'site:localhost', 'family:http-fetch']);
    assert.equal(denied.local, true);
  });

  test('a non-local call reports local: false', () => {
    assert.equal(run('bash', { command: 'curl https://example.com/' }).local, false);
    assert.equal(run('edit', { file_path: '/a' }).local, false);
  });

  test('localHosts: allow does not relax exact:, so an identical local call is still gated at the exact: cap', async () => {
    const host = newHost({ onLimit: 'deny', localHosts: 'allow' });
    const agent = {};
    const cap = defaultCap('exact');
    const outcomes = [];
    for (let i = 1; i <= cap; i += 1) outcomes.push(await host.call({ agent, ...bash('curl -s http://127.0.0.1:18999/health -o /tmp/h') }));
    assert.deepEqual(deniedAt(outcomes), [cap]);
    const lines = hitLines(outcomes[cap - 1]?.denyReason);
    assert.ok(lines.some((line) => line.startsWith('- exact:')), 'the identical local call hits exact:');
    assert.ok(!lines.some((line) => /^- (net|sink|host):/.test(line)), lines.join('\n'));
  });

  test('localHosts: deny (the default) counts and blocks local calls like any other', async () => {
    assert.equal(DEFAULTS.localHosts, 'deny');
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const cap = defaultCap('net');
    const outcomes = [];
    for (let i = 1; i <= cap; i += 1) outcomes.push(await host.call({ agent, ...bash(`curl -s --max-time ${i} http://localhost:3000/x`) }));
    assert.deepEqual(deniedAt(outcomes), [cap]);
    assert.ok(hitLines(outcomes[cap - 1]?.denyReason).includes(`- net:localhost/x ${cap}/${cap}`), 'the local URL hits net: at its cap');
  });
});
