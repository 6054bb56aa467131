/**
 * What a call emits: the §2.14 matrix (E1–E19), emission order and dedup,
 * decoy stripping, alias folding, sinks and the host:/net: split.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, resolveConfig } from '../../src/lib/config/config.js';
import { fingerprints, limitFor, measureOf, measureRank } from '../../src/lib/call/fingerprint.js';
import { isShell } from '../../src/lib/call/read.js';
import { bash, deniedAt, defaultCap, hitLines, newHost, on } from '../support/session.js';

const ex = (command: string): string => `exact:bash:${JSON.stringify({ command })}`;
const bashArgs = (command: string) => ({ command, description: '1st', timeoutMs: 60000 });
const fpsOf = (name: string, args: unknown, config: unknown = {}): string[] =>
  fingerprints({ name, args }, resolveConfig(config)).fps;

interface Row {
  id: string;
  name: string;
  args: unknown;
  config?: unknown;
  want: string[];
}

const rows: Row[] = [
  {
    id: 'E1',
    name: 'bash',
    args: bashArgs('curl -s https://open-data.canada.ca/x --max-time 60 -o /workspace/od.bin'),
    want: [
      ex('curl -s https://open-data.canada.ca/x --max-time 60 -o /workspace/od.bin'),
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:curl https://open-data.canada.ca/x -o /workspace/od.bin',
      'net:open.canada.ca/x',
      'site:canada.ca',
      'host:open.canada.ca',
      'sink:/workspace/od.bin',
    ],
  },
  {
    id: 'E2',
    name: 'bash',
    args: bashArgs('curl -s https://open.canada.ca/x --max-time 30 -o /workspace/od.bin'),
    want: [
      ex('curl -s https://open.canada.ca/x --max-time 30 -o /workspace/od.bin'),
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:curl https://open.canada.ca/x -o /workspace/od.bin',
      'net:open.canada.ca/x',
      'site:canada.ca',
      'host:open.canada.ca',
      'sink:/workspace/od.bin',
    ],
  },
  {
    id: 'E3',
    name: 'bash',
    args: bashArgs('wget -O out.bin https://x.example.com/f'),
    want: [
      ex('wget -O out.bin https://x.example.com/f'),
      'verb:wget',
      'family:http-fetch',
      'cmd:wget:wget -O out.bin https://x.example.com/f',
      'net:x.example.com/f',
      'site:example.com',
      'host:x.example.com',
      'sink:out.bin',
    ],
  },
  {
    id: 'E4',
    name: 'bash',
    args: bashArgs('ls -la /tmp'),
    want: [ex('ls -la /tmp'), 'verb:ls', 'cmd:ls:ls -la /tmp'],
  },
  {
    id: 'E5',
    name: 'bash',
    args: bashArgs('curl -s -o /dev/null -w "%{http_code}" https://example.org/'),
    want: [
      'exact:bash:{"command":"curl -s -o /dev/null -w \\"%{http_code}\\" https://example.org/"}',
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:curl -o /dev/null -w %{http_code} https://example.org/',
      'net:example.org/',
      'site:example.org',
      'host:example.org',
    ],
  },
  {
    id: 'E6',
    name: 'bash',
    args: bashArgs('FOO=1 sudo timeout 5 /usr/bin/curl https://a.com'),
    want: [
      ex('FOO=1 sudo timeout 5 /usr/bin/curl https://a.com'),
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:sudo timeout 5 /usr/bin/curl https://a.com',
      'net:a.com/',
      'site:a.com',
      'host:a.com',
    ],
  },
  {
    id: 'E7',
    name: 'bash',
    args: bashArgs('cd /w && curl https://a.com/x'),
    want: [ex('cd /w && curl https://a.com/x'), 'verb:cd', 'cmd:cd:cd /w && curl https://a.com/x', 'net:a.com/x', 'site:a.com', 'host:a.com'],
  },
  {
    id: 'E8',
    name: 'bash',
    args: bashArgs('curl https://a.com/1 https://a.com/2'),
    want: [
      ex('curl https://a.com/1 https://a.com/2'),
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:curl https://a.com/1 https://a.com/2',
      'net:a.com/1',
      'site:a.com',
      'host:a.com',
      'net:a.com/2',
    ],
  },
  { id: 'E9', name: 'bash', args: bashArgs('timeout 30'), want: [ex('timeout 30')] },
  {
    id: 'E10',
    name: 'bash',
    args: bashArgs('curl -s http://127.0.0.1:18999/x https://example.com/y'),
    want: [
      ex('curl -s http://127.0.0.1:18999/x https://example.com/y'),
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:curl http://127.0.0.1:18999/x https://example.com/y',
      'net:127.0.0.1/x',
      'site:127.0.0.1',
      'net:example.com/y',
      'site:example.com',
      'host:example.com',
    ],
  },
  {
    id: 'E11',
    name: 'bash',
    args: bashArgs('curl http://[::1]:8080/x'),
    want: [ex('curl http://[::1]:8080/x'), 'verb:curl', 'family:http-fetch', 'cmd:curl:curl http://[::1]:8080/x', 'net:[::1]/x', 'site:[::1]'],
  },
  {
    id: 'E12',
    name: 'bash',
    args: bashArgs('curl -s http://127.0.0.1:18999/x -o /tmp/o'),
    config: { localHosts: 'allow' },
    want: [ex('curl -s http://127.0.0.1:18999/x -o /tmp/o'), 'cmd:curl:curl http://127.0.0.1:18999/x -o /tmp/o'],
  },
  {
    id: 'E13',
    name: 'bash',
    args: bashArgs('curl -s http://localhost:3000/x'),
    want: [ex('curl -s http://localhost:3000/x'), 'verb:curl', 'family:http-fetch', 'cmd:curl:curl http://localhost:3000/x', 'net:localhost/x', 'site:localhost'],
  },
  {
    id: 'E14',
    name: 'bash',
    args: bashArgs('curl -s http://localhost:3000/x'),
    config: { includeLocal: true },
    want: [
      ex('curl -s http://localhost:3000/x'),
      'verb:curl',
      'family:http-fetch',
      'cmd:curl:curl http://localhost:3000/x',
      'net:localhost/x',
      'site:localhost',
      'host:localhost',
    ],
  },
  {
    id: 'E15',
    name: 'web_fetch',
    args: { url: 'https://www.Example.com/a/', description: 'x' },
    want: ['exact:web_fetch:{"url":"https://www.Example.com/a/"}', 'net:example.com/a', 'site:example.com', 'host:example.com', 'family:http-fetch'],
  },
  { id: 'E16', name: 'web_search', args: { query: 'q' }, want: ['exact:web_search:{"query":"q"}'] },
  {
    id: 'E17',
    name: 'edit',
    args: { file_path: '/w/a.ts', old_string: 'x', new_string: 'y', reason: 'r' },
    want: ['exact:edit:{"file_path":"/w/a.ts","new_string":"y","old_string":"x"}'],
  },
  { id: 'E18', name: 'x', args: 'str', want: ['exact:x:{"value":"str"}'] },
  { id: 'E19', name: 'Bash', args: { command: 'curl https://a.com/x' }, want: ['exact:Bash:{"command":"curl https://a.com/x"}'] },
];

describe('the fingerprint matrix of contract §2.14', () => {
  for (const row of rows) {
    test(`${row.id}: a ${row.name} call emits exactly the contract's fingerprints, in order`, () => {
      assert.deepEqual(fpsOf(row.name, row.args, row.config), row.want);
    });
  }

  test('every call emits exact: first and never the same fingerprint twice', () => {
    for (const row of rows) {
      const fps = fpsOf(row.name, row.args, row.config);
      assert.ok(fps[0]?.startsWith(`exact:${row.name}:`), `${row.id}: ${fps[0]}`);
      assert.equal(new Set(fps).size, fps.length, `${row.id} has a duplicate`);
    }
  });

  test('two URLs on one host share site: and host: once, in first-seen order', () => {
    const fps = fpsOf('bash', { command: 'curl https://a.com/1 https://a.com/2 https://a.com/1' });
    assert.deepEqual(
      fps.filter((fp) => /^(net|site|host):/.test(fp)),
      ['net:a.com/1', 'site:a.com', 'host:a.com', 'net:a.com/2'],
    );
  });

  test('a URL tool takes its URL from url, then href, then uri', () => {
    assert.ok(fpsOf('web_fetch', { href: 'https://b.com/h' }).includes('net:b.com/h'), 'with no url, a URL tool reads href');
    assert.ok(fpsOf('web_fetch', { uri: 'https://c.com/u' }).includes('net:c.com/u'), 'with no url or href, a URL tool reads uri');
    assert.ok(fpsOf('web_fetch', { url: 'https://a.com/1', href: 'https://b.com/2' }).includes('net:a.com/1'), 'url comes before href');
    assert.ok(
      !fpsOf('web_fetch', { url: 'https://a.com/1', href: 'https://b.com/2' }).includes('net:b.com/2'),
      'href is not read when url is set',
    );
  });

  test('any tool whose name mentions fetch, search, browse or web_ is a URL tool, case-insensitively', () => {
    for (const name of ['MyFetcher', 'web_search', 'BROWSE_page', 'web_x', 'semantic_search']) {
      assert.ok(fpsOf(name, { url: 'https://a.com/x' }).includes('host:a.com'), name);
    }
    assert.deepEqual(fpsOf('read', { url: 'https://a.com/x' }), ['exact:read:{"url":"https://a.com/x"}']);
  });

  test('a URL tool whose URL does not parse gets only exact:', () => {
    assert.deepEqual(fpsOf('web_fetch', { url: 42 }), ['exact:web_fetch:{"url":42}']);
    assert.deepEqual(fpsOf('web_fetch', { url: '   ' }), ['exact:web_fetch:{"url":"   "}']);
  });

  test('a shell command that is not a string contributes only exact:', () => {
    assert.deepEqual(fpsOf('bash', { command: ['curl', 'https://a.com'] }), ['exact:bash:{"command":["curl","https://a.com"]}']);
  });

  test('shell tools are exactly bash, pwsh and shell, case-sensitively', () => {
    assert.equal(isShell('bash'), true);
    assert.equal(isShell('pwsh'), true);
    assert.equal(isShell('shell'), true);
    assert.equal(isShell('Bash'), false);
    assert.equal(isShell('zsh'), false);
    assert.ok(fpsOf('pwsh', { command: 'ls -la' }).includes('cmd:ls:ls -la'), 'pwsh is a shell tool');
    assert.ok(fpsOf('shell', { command: 'ls -la' }).includes('cmd:ls:ls -la'), 'shell is a shell tool');
  });

  test('object keys are sorted at every depth inside exact:', () => {
    assert.deepEqual(fpsOf('write', { b: 1, a: { d: 2, c: 3 } }), ['exact:write:{"a":{"c":3,"d":2},"b":1}']);
  });

  test('decoys are removed from the top level of the arguments only', () => {
    assert.deepEqual(fpsOf('write', { path: '/a', meta: { description: 'kept' }, description: 'gone' }), [
      'exact:write:{"meta":{"description":"kept"},"path":"/a"}',
    ]);
  });
});

describe('decoy arguments never reach a fingerprint', () => {
  const decoys = [
    { description: '1st', timeoutMs: 913571 },
    { description: '2nd', timeoutMs: 271828 },
    { description: '3rd', timeoutMs: 314159 },
    { description: '4th', timeoutMs: 161803 },
    { description: '5th', timeoutMs: 141421 },
  ];
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [
    { name: 'bash', args: { command: 'curl -s https://open.canada.ca/data -o /workspace/od.bin' } },
    { name: 'web_fetch', args: { url: 'https://open.canada.ca/data' } },
    { name: 'edit', args: { file_path: '/w/a.ts', old_string: 'x', new_string: 'y' } },
  ];
  for (const call of calls) {
    test(`no ${call.name} fingerprint contains a description '1st'…'5th' or a timeoutMs value`, () => {
      const lists = decoys.map((decoy) => fpsOf(call.name, { ...call.args, ...decoy }));
      for (const [i, fps] of lists.entries()) {
        const decoy = decoys[i]!;
        for (const fp of fps) {
          assert.ok(!fp.includes(decoy.description), `${fp} contains ${decoy.description}`);
          assert.ok(!fp.includes(String(decoy.timeoutMs)), `${fp} contains ${decoy.timeoutMs}`);
        }
      }
      for (const fps of lists) assert.deepEqual(fps, lists[0]);
    });
  }

  test('the bash-only decoys run_in_background and justification are stripped too', () => {
    assert.deepEqual(fpsOf('bash', { command: 'ls', run_in_background: true, justification: 'why' }), [
      ex('ls'),
      'verb:ls',
      'cmd:ls:ls',
    ]);
  });

  test('description churn on an otherwise identical bash call is gated at the exact: cap', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const cap = defaultCap('exact');
    const outcomes = [];
    for (let i = 1; i <= cap; i += 1) {
      outcomes.push(await host.call({ agent, name: 'bash', arguments: { command: 'echo hello-repeat', description: `call ${i}`, timeoutMs: i * 1000 } }));
    }
    assert.deepEqual(deniedAt(outcomes), [cap]);
  });
});

describe('host aliases fold spellings of one host', () => {
  test('open-data.canada.ca and open.canada.ca share net:, host: and sink: but not cmd:', () => {
    const a = fpsOf('bash', { command: 'curl -s https://open-data.canada.ca/x --max-time 60 -o /workspace/od.bin' });
    const b = fpsOf('bash', { command: 'curl -s https://open.canada.ca/x --max-time 30 -o /workspace/od.bin' });
    const shared = a.filter((fp) => b.includes(fp));
    assert.deepEqual(shared, ['verb:curl', 'family:http-fetch', 'net:open.canada.ca/x', 'site:canada.ca', 'host:open.canada.ca', 'sink:/workspace/od.bin']);
  });

  test('a user alias folds its host, and the default alias still folds', () => {
    const cfg = { hostAliases: { 'mirror.example.com': 'example.com' } };
    assert.ok(
      fpsOf('web_fetch', { url: 'https://mirror.example.com/p' }, cfg).includes('host:example.com'),
      'the user alias folds mirror.example.com into example.com',
    );
    assert.ok(
      fpsOf('web_fetch', { url: 'https://open-data.canada.ca/p' }, cfg).includes('host:open.canada.ca'),
      'the default alias still folds open-data.canada.ca',
    );
  });

  test('host-spelling ping-pong with churning --max-time is denied at the net: cap although every exact: differs', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const cap = defaultCap('net');
    const outcomes = [];
    for (let i = 1; i <= cap; i += 1) {
      const spelling = i % 2 === 0 ? 'open-data.canada.ca' : 'open.canada.ca';
      outcomes.push(await host.call({ agent, ...bash(`curl -s https://${spelling}/x --max-time ${i} -o /workspace/od.bin`, { description: `${i}th` }) }));
    }
    assert.deepEqual(deniedAt(outcomes), [cap]);
    const lines = hitLines(outcomes[cap - 1]?.denyReason);
    assert.ok(lines.includes(`- net:open.canada.ca/x ${cap}/${cap}`), lines.join('\n'));
    assert.ok(lines.includes(`- sink:/workspace/od.bin ${defaultCap('sink')}/${defaultCap('sink')}`), lines.join('\n'));
    assert.ok(!lines.some((line) => line.startsWith('- exact:')), 'exact: differs on every call');
  });
});

describe('sinks', () => {
  test('a generic sink never becomes a fingerprint', () => {
    for (const command of [
      'curl -s -o /dev/null https://a.com',
      'echo x > /dev/stdout',
      'echo x > /dev/stderr',
      'head -c 1 /dev/zero > /dev/zero',
      'echo x | tee /dev/tty',
      'curl -o - https://a.com',
    ]) {
      assert.ok(!fpsOf('bash', { command }).some((fp) => fp.startsWith('sink:')), command);
    }
  });

  test('any shell command that writes a file emits sink:, not only HTTP verbs', () => {
    assert.ok(
      fpsOf('bash', { command: 'python3 x.py > report.md' }).includes('sink:report.md'),
      'a file written by a redirection is a sink',
    );
  });

  test('four different URLs written to /dev/null are all allowed end to end, even with a sink: cap of 2', async () => {
    const host = newHost({ onLimit: 'deny', limits: { sink: 2 } });
    const agent = {};
    const outcomes = [];
    for (const site of ['a.example.com', 'b.example.org', 'c.example.net', 'd.example.io']) {
      outcomes.push(await host.call({ agent, ...bash(`curl -s -o /dev/null -w '%{http_code}' https://${site}/`) }));
    }
    assert.deepEqual(deniedAt(outcomes), []);
    assert.ok(outcomes.every((o) => o.ran), 'every write to /dev/null runs');
  });

  test('a real file sink does collide across different URLs', async () => {
    const host = newHost({ onLimit: 'deny', limits: { sink: 2 } });
    const agent = {};
    const first = await host.call({ agent, ...bash('curl -s -o /tmp/page.html https://a.example.com/') });
    const second = await host.call({ agent, ...bash('curl -s -o /tmp/page.html https://b.example.org/') });
    assert.equal(first.denied, false);
    assert.equal(second.denied, true);
    assert.deepEqual(hitLines(second.denyReason), ['- sink:/tmp/page.html 2/2']);
  });
});

describe('host: versus net: versus pagination', () => {
  test('?page=N is a different net: resource on every page', () => {
    const one = fpsOf('bash', { command: 'curl -s "https://api.example.com/items?page=1"' });
    const two = fpsOf('bash', { command: 'curl -s "https://api.example.com/items?page=2"' });
    assert.ok(one.includes('net:api.example.com/items?page=1'), 'page 1 is its own net: resource');
    assert.ok(two.includes('net:api.example.com/items?page=2'), 'page 2 is its own net: resource');
    assert.ok(one.includes('host:api.example.com') && two.includes('host:api.example.com'), 'both pages share one host:');
  });

  test('eight pages of one endpoint never block on net:, even with a net: cap of 2', async () => {
    const host = newHost({ onLimit: 'deny', limits: { net: 2 } });
    const agent = {};
    const outcomes = [];
    for (let page = 1; page <= 8; page += 1) {
      outcomes.push(await host.call({ agent, ...bash(`curl -s "https://api.example.com/items?page=${page}"`) }));
    }
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('host: accumulates across pages and trips at its cap, never net:', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const cap = defaultCap('host');
    assert.ok(cap <= on(DEFAULTS.window), 'the host cap fits in the window');
    const outcomes = [];
    for (let page = 1; page <= cap; page += 1) {
      outcomes.push(await host.call({ agent, ...bash(`curl -s "https://api.example.com/items?page=${page}"`) }));
    }
    assert.deepEqual(deniedAt(outcomes), [cap]);
    assert.deepEqual(hitLines(outcomes[cap - 1]?.denyReason), [`- host:api.example.com ${cap}/${cap}`]);
  });

  test('site: is uncapped by default, so many hosts of one site never block', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const outcomes = [];
    for (let i = 1; i <= 20; i += 1) outcomes.push(await host.call({ agent, ...bash(`curl -s https://h${i}.example.com/`) }));
    assert.deepEqual(deniedAt(outcomes), []);
  });
});

describe('measures, ranks and caps', () => {
  test('measureOf is the prefix before the first colon: empty when the colon leads, the whole text without one', () => {
    assert.equal(measureOf('net:a.com/x?y=1:2'), 'net');
    assert.equal(measureOf('family:http-fetch'), 'family');
    assert.equal(measureOf(':x'), '');
    assert.equal(measureOf('bare'), 'bare');
  });

  test('measureRank prefers host, net, site, sink, cmd, exact and puts every other kind last', () => {
    const order = ['host:a', 'net:a/', 'site:a', 'sink:x', 'cmd:x:x', 'exact:x:{}'].map(measureRank);
    assert.deepEqual([...order].sort((a, b) => a - b), order);
    assert.equal(new Set(order).size, 6);
    for (const other of ['verb:curl', 'family:http-fetch', 'weird:thing']) {
      assert.ok(measureRank(other) > measureRank('exact:x:{}'), other);
    }
    assert.equal(measureRank('verb:curl'), measureRank('family:http-fetch'));
  });

  test('limitFor reads the full key first, then the measure, and treats null as uncapped', () => {
    const limits = DEFAULTS.limits;
    assert.equal(limitFor('exact:bash:{}', limits), defaultCap('exact'));
    assert.equal(limitFor('host:a.com', limits), defaultCap('host'));
    assert.equal(limitFor('family:http-fetch', limits), Infinity);
    assert.equal(limitFor('verb:curl', limits), Infinity);
    assert.equal(limitFor('verb:ls', limits), Infinity);
    assert.equal(limitFor('site:a.com', limits), Infinity);
    assert.equal(limitFor('verb:ls', { ...limits, verb: 3 }), 3);
    assert.equal(limitFor('verb:curl', { ...limits, verb: 3 }), Infinity);
    assert.equal(limitFor('net:a.com/x', { ...limits, 'net:a.com/x': 4 }), 4);
  });
});
