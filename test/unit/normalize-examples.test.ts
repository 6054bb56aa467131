// The worked examples of contract §2.14 that concern the normalize modules, with the
// contract's expected values (E11 and E79 follow decision P3: bracketed loopback is local).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/lib/shell/tokenize.js';
import { extractUrls, normUrl, isLocalHost, siteOf } from '../../src/lib/call/url.js';
import { firstVerb, stripVolatileFlags, extractSink, isGenericSink } from '../../src/lib/shell/command.js';
import { canonical, stripDecoys } from '../../src/lib/call/canonical.js';

const HOST_ALIASES = {
  'open-data.canada.ca': 'open.canada.ca',
  'www.open.canada.ca': 'open.canada.ca',
  'www.open-data.canada.ca': 'open.canada.ca',
};
const SHELL_DECOYS = ['description', 'timeoutMs', 'run_in_background', 'justification'];
const IGNORE_ARGS = {
  '*': [...SHELL_DECOYS, 'reason', 'title', 'comment'],
  bash: SHELL_DECOYS,
  pwsh: SHELL_DECOYS,
  shell: SHELL_DECOYS,
};

const url = (host: string, path: string, site: string, href: string) => ({ host, path, site, href });

const NORM_URL: [string, string, ReturnType<typeof url> | null][] = [
  ['E20', 'https://Example.COM:443/a/b/?q=1#frag', url('example.com', '/a/b', 'example.com', 'example.com/a/b?q=1')],
  ['E21', 'example.com', url('example.com', '/', 'example.com', 'example.com/')],
  ['E22', 'http://example.com:8080/x', url('example.com', '/x', 'example.com', 'example.com/x')],
  ['E23', 'ftp://example.com/x', url('example.com', '/x', 'example.com', 'example.com/x')],
  ['E24', 'https://www.open.canada.ca/x/', url('open.canada.ca', '/x', 'canada.ca', 'open.canada.ca/x')],
  ['E25', 'https://www.www.example.com/', url('www.example.com', '/', 'example.com', 'www.example.com/')],
  ['E26', 'https://example.com./a//', url('example.com', '/a', 'example.com', 'example.com/a')],
  [
    'E27',
    'https://example.com/a?utm_source=x&fbclid=1&_ga=5&UTM_Medium=8&utm=9',
    url('example.com', '/a', 'example.com', 'example.com/a?utm=9'),
  ],
  ['E28', 'https://example.com/?b=2&a=1&a=0', url('example.com', '/', 'example.com', 'example.com/?a=0&a=1&b=2')],
  ['E29', 'https://example.com/?a=%20b&c=d+e', url('example.com', '/', 'example.com', 'example.com/?a= b&c=d e')],
  ['E30', 'https://example.com/p?flag', url('example.com', '/p', 'example.com', 'example.com/p?flag=')],
  // Past eight pairs a query is put in order by the general sort, not by insertion: the same order.
  [
    'E28',
    'https://example.com/?i=9&h=8&g=7&f=6&e=5&d=4&c=3&b=2&a=1&b=1',
    url('example.com', '/', 'example.com', 'example.com/?a=1&b=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9'),
  ],
  ['E31', 'https://user:pw@example.com/x', url('example.com', '/x', 'example.com', 'example.com/x')],
  ['E32', '192.168.111.90/a', url('192.168.111.90', '/a', '192.168.111.90', '192.168.111.90/a')],
  ['E33', 'https://a.b.c.example.co.uk/', url('a.b.c.example.co.uk', '/', 'co.uk', 'a.b.c.example.co.uk/')],
  ['E34', 'https://bücher.example/', url('xn--bcher-kva.example', '/', 'xn--bcher-kva.example', 'xn--bcher-kva.example/')],
  ['E35', 'http://127', url('0.0.0.127', '/', '0.0.0.127', '0.0.0.127/')],
  ['E36', 'not a url', null],
  // A last label of digits makes the host an IPv4 address, which `1a` cannot start.
  ['E36', 'http://1a.2.3.4/', null],
  // From E1/E2 (net:, site:, host:) and E11 (IPv6 keeps its brackets).
  ['E1', 'https://open-data.canada.ca/x', url('open.canada.ca', '/x', 'canada.ca', 'open.canada.ca/x')],
  ['E11', 'http://[::1]:8080/x', url('[::1]', '/x', '[::1]', '[::1]/x')],
];

const EXTRACT_URLS: [string, string, string[]][] = [
  ['E37', 'see https://a.com/x, and https://a.com/x again', ['https://a.com/x']],
  ['E38', 'echo (https://a.com/x).', ['https://a.com/x']],
  ['E39', 'curl <https://a.com/x>', ['https://a.com/x']],
  ['E40', 'curl http://127\\.0\\.0\\.1:3080/', ['http://127']],
  ['E41', 'HTTPS://A.COM/x', []],
  ['E42', 'curl https://a.com/x https://a.com/x/', ['https://a.com/x', 'https://a.com/x/']],
  ['E8', 'curl https://a.com/1 https://a.com/2', ['https://a.com/1', 'https://a.com/2']],
  ['E10', 'curl -s http://127.0.0.1:18999/x https://example.com/y', ['http://127.0.0.1:18999/x', 'https://example.com/y']],
];

const STRIP: [string, string, string][] = [
  ['E43', 'timeout 30 curl -s -o out.bin https://a.com/x', 'curl -o out.bin https://a.com/x'],
  ['E44', 'curl -sSLfk https://a.com', 'curl https://a.com'],
  ['E45', 'curl -sv https://a.com', 'curl -sv https://a.com'],
  ['E46', 'curl --max-time=60 --connect-timeout 5 https://a.com', 'curl https://a.com'],
  ['E47', 'curl -m60 -A"UA" https://a.com', 'curl -AUA https://a.com'],
  ['E48', 'sudo curl -s https://a.com', 'sudo curl https://a.com'],
  // P9: curl's volatile flags are not ls's, so ls keeps them (0.5.2 gave `ls`).
  ['E49', 'ls -s -L -k -f', 'ls -s -L -k -f'],
  ['E50', 'curl -X POST --data "a=1" https://a.com', 'curl -X POST --data a=1 https://a.com'],
  [
    'E1',
    'curl -s https://open-data.canada.ca/x --max-time 60 -o /workspace/od.bin',
    'curl https://open-data.canada.ca/x -o /workspace/od.bin',
  ],
  ['E5', 'curl -s -o /dev/null -w "%{http_code}" https://example.org/', 'curl -o /dev/null -w %{http_code} https://example.org/'],
  ['E6', 'FOO=1 sudo timeout 5 /usr/bin/curl https://a.com', 'sudo timeout 5 /usr/bin/curl https://a.com'],
  ['E9', 'timeout 30', ''],
  // A glued value is curl's only with its dash: `xm5` and `yA1` are words of the command.
  ['P9', 'curl xm5 yA1 -m5 -A1 https://a.com', 'curl xm5 yA1 https://a.com'],
  // Only a standalone `||` or `&&` ends curl's command: `&&&` is a word of it, and the flag after it is curl's.
  ['P9', 'curl &&& -s https://a.com', 'curl &&& https://a.com'],
  ['P9', 'curl ||| -s https://a.com', 'curl ||| https://a.com'],
  ['P9', 'curl a && -s https://a.com', 'curl a && -s https://a.com'],
];

const VERB: [string, string, string][] = [
  ['E51', 'FOO=1 sudo timeout 5 /usr/bin/curl https://a.com', 'curl'],
  ['E52', 'sudo -u root curl x', 'curl'],
  ['E53', 'env A=1 B=2 wget x', 'wget'],
  ['E54', 'timeout --signal=KILL 30s curl x', 'curl'],
  ['E55', 'timeout -s KILL 30 curl x', '-s'],
  ['E56', 'nice -n 10 python3 x.py', 'python3'],
  ['E57', 'nohup ./run.sh &', 'run.sh'],
  ['E58', 'command -v curl', 'curl'],
  ['E59', '(curl x)', '(curl'],
  ['E60', 'FOO=1', ''],
  ['E61', 'C:\\tools\\Curl.EXE x', 'c:toolscurl.exe'],
  ['E7', 'cd /w && curl https://a.com/x', 'cd'],
  ['E9', 'timeout 30', ''],
];

const SINK: [string, string, string | null][] = [
  ['E62', 'curl -s https://a.com/x -o out.bin', 'out.bin'],
  ['E63', 'curl -s https://a.com/x >>/tmp/out.bin', '/tmp/out.bin'],
  ['E64', 'curl -s https://a.com/x 2>/dev/null > out.bin', 'out.bin'],
  ['E65', 'curl -s https://a.com/x | tee -a ./out.bin', 'out.bin'],
  ['E66', 'curl -O https://a.com/file.bin', null],
  ['E67', 'wget -O file.bin https://a.com/x', 'file.bin'],
  ['E68', 'curl --output=c.json https://a.com', 'c.json'],
  ['E69', 'wget --output-document d.html https://a.com', 'd.html'],
  ['E70', 'curl -o - https://a.com', null],
  ['E71', 'echo hi &> log.txt', null],
  ['E72', 'echo hi | tee a.txt b.txt', 'b.txt'],
  ['E73', 'echo a > x; echo b > y', 'x;'],
  ['E74', 'curl -o out1 https://a.com -o out2', 'out1'],
  ['E75', 'python3 x.py > ././res.txt', 'res.txt'],
  ['E3', 'wget -O out.bin https://x.example.com/f', 'out.bin'],
];

const LOCAL: [string, string, boolean][] = [
  ['E76', 'api.localhost', true],
  ['E77', 'LOCALHOST', false],
  ['E78', '0:0:0:0:0:0:0:1', true],
  ['E79', '[::1]', true],
  ['E80', '172.31.255.255', true],
  ['E81', '172.32.0.1', false],
  ['E82', '169.254.1.1', true],
  ['E83', '0.0.0.0', true],
  ['E84', 'fc00::1', true],
  ['E85', 'FE80::1', true],
  ['E86', '100.64.0.1', false],
  ['E87', '127.example.com', true],
  // P3 edges: brackets are looked through for loopback, link-local and unique-local only.
  ['P3', '[0:0:0:0:0:0:0:1]', true],
  ['P3', '[fe80::1]', true],
  ['P3', '[fd12:3456::1]', true],
  ['P3', '[FC00::1]', true],
  ['P3', '[2001:db8::1]', false],
  ['P3', '[::ffff:127.0.0.1]', false],
  ['P3', '[127.0.0.1]', false],
  ['E10', '127.0.0.1', true],
  ['E13', 'localhost', true],
];

const TOKENIZE: [string, string, string[]][] = [
  ['E88', `curl -H 'Accept: a b' "https://x/y" -o 'out.bin'`, ['curl', '-H', 'Accept: a b', 'https://x/y', '-o', 'out.bin']],
  ['E89', `echo a\\ b "c \\"d\\" e" 'f\\g'`, ['echo', 'a b', 'c "d" e', 'f\\g']],
  ['E90', 'echo a|b', ['echo', 'a|b']],
  ['§2.11', `echo ''`, ['echo', '']],
  ['§2.11', `echo "a b`, ['echo', 'a b']],
];

for (const [id, input, expected] of NORM_URL) {
  test(`${id} normUrl(${JSON.stringify(input)})`, () => {
    assert.deepEqual(normUrl(input, HOST_ALIASES), expected);
  });
}
for (const [id, input, expected] of EXTRACT_URLS) {
  test(`${id} extractUrls(${JSON.stringify(input)})`, () => assert.deepEqual(extractUrls(input), expected));
}
for (const [id, input, expected] of STRIP) {
  test(`${id} stripVolatileFlags(${JSON.stringify(input)})`, () => assert.equal(stripVolatileFlags(input), expected));
}
for (const [id, input, expected] of VERB) {
  test(`${id} firstVerb(${JSON.stringify(input)})`, () => assert.equal(firstVerb(input), expected));
}
for (const [id, input, expected] of SINK) {
  test(`${id} extractSink(${JSON.stringify(input)})`, () => assert.equal(extractSink(input), expected));
}
for (const [id, input, expected] of LOCAL) {
  test(`${id} isLocalHost(${JSON.stringify(input)})`, () => assert.equal(isLocalHost(input), expected));
}
for (const [id, input, expected] of TOKENIZE) {
  test(`${id} tokenize(${JSON.stringify(input)})`, () => assert.deepEqual(tokenize(input), expected));
}

test('E33 siteOf keeps the last two labels, IPs whole', () => {
  assert.equal(siteOf('a.b.c.example.co.uk'), 'co.uk');
  assert.equal(siteOf('192.168.111.90'), '192.168.111.90');
  assert.equal(siteOf('[::1]'), '[::1]');
});

test('§1.1 isGenericSink', () => {
  for (const sink of [undefined, null, 42, '', '/dev/null', '/dev/stdout', '/dev/stderr', '/dev/zero', '/dev/tty', '-']) {
    assert.equal(isGenericSink(sink), true, String(sink));
  }
  for (const sink of ['out.bin', '/tmp/x', '/dev/nullx', 'x;']) assert.equal(isGenericSink(sink), false, sink);
});

test('E91 canonical sorts keys at every depth', () => {
  assert.equal(canonical({ b: 1, a: [1, { d: 2, c: 3 }] }), '{"a":[1,{"c":3,"d":2}],"b":1}');
});

test('E92 canonical writes a cycle as "[cycle]"', () => {
  const self: Record<string, unknown> = {};
  self['self'] = self;
  assert.equal(canonical(self), '{"self":"[cycle]"}');
});

test('E93 canonical turns undefined and function items into null', () => {
  assert.equal(canonical([undefined, () => 1]), '[null,null]');
});

test('E94 stripDecoys drops the * and per-tool decoys at the top level', () => {
  const args = { command: 'ls', description: '1st', timeoutMs: 60, reason: 'r', extra: 1 };
  assert.equal(JSON.stringify(stripDecoys('bash', args, IGNORE_ARGS)), '{"command":"ls","extra":1}');
});

test('E17/E18 stripDecoys keeps nested decoys and wraps non-objects', () => {
  const edit = { file_path: '/w/a.ts', old_string: 'x', new_string: 'y', reason: 'r' };
  assert.equal(canonical(stripDecoys('edit', edit, IGNORE_ARGS)), '{"file_path":"/w/a.ts","new_string":"y","old_string":"x"}');
  assert.equal(canonical(stripDecoys('x', 'str', IGNORE_ARGS)), '{"value":"str"}');
  assert.deepEqual(stripDecoys('x', null, IGNORE_ARGS), {});
  assert.deepEqual(stripDecoys('x', undefined, IGNORE_ARGS), {});
  assert.deepEqual(stripDecoys('x', [1], IGNORE_ARGS), { value: [1] });
  assert.equal(canonical(stripDecoys('x', { a: { description: 'd' } }, IGNORE_ARGS)), '{"a":{"description":"d"}}');
});
