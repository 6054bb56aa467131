/**
 * The protocol parts of every message (contract §5, §2.13): leading tokens,
 * hit lines, previous-result quoting, the preview rule, and what a message
 * must never contain. The wording itself is the port's own and is not pinned.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { describeFailure } from '../../src/lib/text/failure.js';
import { preview, renderResult } from '../../src/lib/text/message.js';
import { bash, defaultCap, deniedAt, failing, hitLines, newHost, noticeTexts, on, repeat, shown, succeeding, type HostResult } from '../support/session.js';

const X = bash('cat /etc/hosts');
const CMD = 'cmd:cat:cat /etc/hosts';
const EXACT = 'exact:bash:{"command":"cat /etc/hosts"}';
const cap = defaultCap('exact');
const warnAt = on(DEFAULTS.warnAt);
const summarizeAt = on(DEFAULTS.summarizeAt);
const failWarnAt = on(DEFAULTS.failWarnAt);
const failLimit = on(DEFAULTS.failLimit);
const empty = (): HostResult => ({ isError: false, value: {}, content: [] });

async function denialOf(config: Record<string, unknown> = {}, body = succeeding('PREVIOUS-RESULT-MARKER')): Promise<string> {
  const outcomes = await repeat(newHost({ onLimit: 'deny', ...config }), {}, cap, { ...X, body });
  return outcomes[cap - 1]?.denyReason ?? '';
}

describe('preview and renderResult (§2.13)', () => {
  test('preview head-cuts to the cap and says how much was dropped', () => {
    assert.equal(preview('abcdef', 3), 'abc\u2026 (+3 more chars)');
  });

  test('preview keeps text at or under the cap whole', () => {
    assert.equal(preview('abc', 3), 'abc');
    assert.equal(preview('ab', 3), 'ab');
  });

  test('preview of null or undefined is empty, and other values are stringified', () => {
    assert.equal(preview(null, 3), '');
    assert.equal(preview(undefined, 3), '');
    assert.equal(preview(123456, 2), '12\u2026 (+4 more chars)');
  });

  test('renderResult joins the non-empty text blocks with newlines', () => {
    const result = { content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'x' }, { type: 'text', text: '' }, { type: 'text', text: 'b' }] };
    assert.equal(renderResult(result), 'a\nb');
  });

  test('renderResult of a result without a content array is empty', () => {
    for (const odd of [null, undefined, {}, { content: 'text' }, { content: { text: 'x' } }, 5]) assert.equal(renderResult(odd), '');
  });
});

describe('the denial (REPEAT_TOOL_BLOCKED)', () => {
  test('starts with REPEAT_TOOL_BLOCKED: and names the tool', async () => {
    const denial = await denialOf();
    assert.ok(denial.startsWith('REPEAT_TOOL_BLOCKED:'), denial);
    assert.match(denial, /\bbash\b/);
  });

  test('lists every blocking hit on its own line as - <fp> <next>/<cap>', async () => {
    const lines = hitLines(await denialOf());
    assert.deepEqual([...lines].sort(), [`- ${CMD} ${cap}/${cap}`, `- ${EXACT} ${cap}/${cap}`].sort());
  });

  test('says that a new description, timeoutMs, --max-time or host spelling is not a new action', async () => {
    const denial = await denialOf();
    for (const word of ['description', 'timeoutMs', '--max-time']) assert.ok(denial.includes(word), word);
    assert.match(denial, /host/i);
  });

  test('quotes the previous result', async () => {
    assert.ok((await denialOf()).includes('PREVIOUS-RESULT-MARKER'), 'the denial quotes the previous result');
  });

  test('cuts the quoted previous result to resultPreviewChars and says how much was cut', async () => {
    const denial = await denialOf({ resultPreviewChars: 10 }, succeeding('ABCDEFGHIJKLMNOP'));
    assert.ok(denial.includes('ABCDEFGHIJ\u2026 (+6 more chars)'), denial);
    assert.ok(!denial.includes('ABCDEFGHIJK'), denial);
  });

  test('a previous result that fits is quoted whole, with no cut marker', async () => {
    const denial = await denialOf({ resultPreviewChars: 16 }, succeeding('ABCDEFGHIJKLMNOP'));
    assert.ok(denial.includes('ABCDEFGHIJKLMNOP'), denial);
    assert.ok(!denial.includes('more chars'), denial);
  });

  test('the one line a blocked row shows (about 90 characters after "Error: ") says what was blocked and why', async () => {
    const row = (text: string | undefined): string => `Error: ${text ?? ''}`.slice(0, 90);
    const repeatRow = row(await denialOf());
    assert.match(repeatRow, /^Error: REPEAT_TOOL_BLOCKED: bash call not run: it would be the 12th call of its kind among/);
    const fails = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, { ...bash('cat /nope'), body: failing(2) });
    assert.match(row(fails[failLimit]?.denyReason), new RegExp(`bash call not run: calls like it failed ${failLimit} times in a row`));
    // Unattended (the host recorded it, for an agent with a session): the asked call's own result carries the first refusal (P13), the next call the loop's second (P17).
    const refused = await repeat(newHost(), { session: {} }, cap + 1, X);
    const explained = ((refused[cap - 1]?.result as { content: { text: string }[] }).content[0]?.text ?? '').split('\n')[1];
    assert.match(row(explained), /bash call not run: no operator is present to approve it/);
    assert.match(explained ?? '', new RegExp(`^REPEAT_TOOL_BLOCKED: bash call not run: no operator is present to approve it; it would be the ${cap}th call of its kind among your recent calls, counting this one and any that were stopped; the gate closes at ${cap}\\.`));
    assert.match(row(refused[cap]?.denyReason), /bash call not run: a loop blocked before \(exact/);
    assert.match(refused[cap]?.denyReason ?? '', /^[^\n]*, 2 of its calls blocked this turn with this one; no operator is present to approve it; the first denial says why\.\n/);
    const spent = await repeat(newHost({ exemptionCeiling: 1 }), {}, cap + 2, { ...X, answer: 'approve' });
    assert.match(row(spent[cap + 1]?.denyReason), /bash call not run: the operator's approval is used up/);
  });

  test('Q6: with no previous result it says the result is already in the history', async () => {
    const denial = await denialOf({}, empty);
    assert.match(denial, /history/i);
    assert.ok(!denial.includes('PREVIOUS-RESULT-MARKER'), 'there is no previous result to quote');
  });

  test('Q6: the quoted result is the last result of any tracked call, not of the denied action', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, cap - 1, { ...X, body: succeeding('HOSTS-FILE') });
    await host.call({ agent, ...bash('uname -a'), body: succeeding('LINUX-KERNEL') });
    const denied = await host.call({ agent, ...X });
    assert.ok(denied.denyReason?.includes('LINUX-KERNEL'), denied.denyReason ?? 'no denial');
    assert.ok(!denied.denyReason?.includes('HOSTS-FILE'), 'the older result of the denied action is not quoted');
  });

  test('a denial never becomes the previous result of the next denial', async () => {
    const host = newHost({ onLimit: 'deny', limits: { exact: 3, cmd: 3 } });
    const agent = {};
    const Y = { ...bash('cat /etc/passwd'), body: succeeding('PASSWD-FILE') };
    await repeat(host, agent, 2, Y);
    const outcomes = await repeat(host, agent, 3, { ...X, body: succeeding('HOSTS-FILE') });
    assert.deepEqual(deniedAt(outcomes), [3], 'the first loop is denied');
    // A second loop's first denial, right after the first loop's.
    const second = (await host.call({ agent, ...Y })).denyReason ?? '';
    assert.equal(second.split('REPEAT_TOOL_BLOCKED').length - 1, 1, second);
    assert.ok(second.includes('Previous result:\nHOSTS-FILE'), 'the second denial still quotes the last real result');
  });

  test('P17: a loop\'s later denial in the turn quotes no previous result and no hit lines, and points back to the first', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap + 1, { ...X, body: succeeding('HOSTS-FILE') });
    const [first = '', second = ''] = outcomes.slice(cap - 1).map((outcome) => outcome.denyReason ?? '');
    assert.ok(first.includes('Previous result:\nHOSTS-FILE') && hitLines(first).length === 2, first);
    assert.equal(
      second,
      [
        `REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before (${shown(EXACT)}), 2 of its calls blocked this turn with this one; the first denial says why.`,
        'Instead: use the result you have, or take a different action.',
      ].join('\n'),
    );
  });

  test('a human message forgets the previous result', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    await repeat(host, agent, 3, { ...X, body: succeeding('BEFORE-THE-HUMAN') });
    await host.human(agent);
    const outcomes = await repeat(host, agent, cap, { ...X, body: empty });
    const denial = outcomes[cap - 1]?.denyReason ?? '';
    assert.ok(!denial.includes('BEFORE-THE-HUMAN'), denial);
    assert.match(denial, /history/i);
  });

  test('a failure denial lists - <fp> — <n> consecutive failures (<description>) and says a different call is not blocked', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, failLimit + 1, { ...bash('cat /nope'), body: failing(2) });
    const denial = outcomes[failLimit]?.denyReason ?? '';
    assert.ok(denial.startsWith('REPEAT_TOOL_BLOCKED:'), denial);
    const desc = describeFailure({ reason: 'exit', detail: '2' });
    assert.ok(hitLines(denial).includes(`- cmd:cat:cat /nope — ${failLimit} consecutive failures (${desc})`), denial);
    assert.match(denial, /different call/i);
  });

  test('quoted fingerprints follow the preview rule', async () => {
    const long = bash('cat /etc/hosts.d/a/rather/long/path/that/goes/on/and/on.conf');
    const fp = `cmd:cat:cat /etc/hosts.d/a/rather/long/path/that/goes/on/and/on.conf`;
    const outcomes = await repeat(newHost({ onLimit: 'deny', previewChars: 20 }), {}, cap, long);
    const lines = hitLines(outcomes[cap - 1]?.denyReason);
    assert.ok(lines.includes(`- ${fp.slice(0, 20)}\u2026 (+${fp.length - 20} more chars) ${cap}/${cap}`), lines.join('\n'));
    const warn = noticeTexts(outcomes[warnAt - 1]!)[0] ?? '';
    assert.ok(warn.includes(`${fp.slice(0, 20)}\u2026 (+${fp.length - 20} more chars)`), warn);
    assert.ok(!warn.includes(fp), 'the whole fingerprint is not quoted');
  });
});

describe('the advisories (CONVERGENCE_CHECK)', () => {
  test('stage 1 starts with CONVERGENCE_CHECK: and names the measure and its count', async () => {
    const outcomes = await repeat(newHost(), {}, warnAt, X);
    const text = noticeTexts(outcomes[warnAt - 1]!)[0] ?? '';
    assert.ok(text.startsWith('CONVERGENCE_CHECK:'), text);
    assert.ok(text.includes(CMD), text);
    assert.match(text, new RegExp(`\\b${warnAt}\\b`));
  });

  test('stage 2 starts with CONVERGENCE_CHECK:, names the measure and count, and asks what is established, assumed, failed and untried', async () => {
    const outcomes = await repeat(newHost(), {}, summarizeAt, X);
    const text = noticeTexts(outcomes[summarizeAt - 1]!)[0] ?? '';
    assert.ok(text.startsWith('CONVERGENCE_CHECK:'), text);
    assert.ok(text.includes(CMD), text);
    assert.match(text, new RegExp(`\\b${summarizeAt}\\b`));
    assert.match(text, /establish/i);
    assert.match(text, /assum/i);
    assert.match(text, /fail/i);
    assert.match(text, /\btwo\b|\b2\b/i);
    assert.match(text, /batch/i);
  });

  test('stage 2 has no paging vocabulary and no budget figure', async () => {
    const outcomes = await repeat(newHost(), {}, summarizeAt, X);
    const text = noticeTexts(outcomes[summarizeAt - 1]!)[0] ?? '';
    assert.doesNotMatch(text, /\bpage|per_page|page size|paginat|paging/i);
    assert.doesNotMatch(text, /%|percent|budget/i);
  });

  test('the failure advisory starts with CONVERGENCE_CHECK: and names the measure, the streak and the failure', async () => {
    const outcomes = await repeat(newHost(), {}, failWarnAt, { ...bash('cat /nope'), body: failing(2) });
    const text = noticeTexts(outcomes[failWarnAt - 1]!)[0] ?? '';
    assert.ok(text.startsWith('CONVERGENCE_CHECK:'), text);
    assert.ok(text.includes('cmd:cat:cat /nope'), text);
    assert.match(text, new RegExp(`\\b${failWarnAt}\\b`));
    assert.ok(text.includes(describeFailure({ reason: 'exit', detail: '2' })), text);
  });
});

describe('the ask (read by the operator), P16', () => {
  const ALLOW = 'Allow once runs it and stops counting calls like it until your next message.';
  const REJECT = 'Reject blocks it and calls like it until then.';
  const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

  test('P16: three plain sentences: what the call would do and why, what Allow once does, what Reject does', async () => {
    const outcomes = await repeat(newHost(), {}, cap, X);
    const ask = outcomes[cap - 1]?.askReason ?? '';
    assert.equal(ask, `Loop breaker: this would be the ${cap}th run of this command among the agent's recent calls. ${ALLOW} ${REJECT}`);
    assert.ok(words(ask) <= 40, `${words(ask)} words`);
  });

  test('P16: no fingerprint, no track, no measure, no list: those are the log line\'s and the notice rows\'; the command is in DSH\'s own box', async () => {
    const outcomes = await repeat(newHost(), {}, cap, X);
    const ask = outcomes[cap - 1]?.askReason ?? '';
    assert.ok(!ask.includes(EXACT) && !ask.includes(CMD) && !ask.includes('cat /etc/hosts'), 'neither a fingerprint nor the command DSH already shows');
    assert.doesNotMatch(ask, /\btrack\b|\bmeasures?\b|lifted on every track|not counted, not gated|Tool:|\d+\/\d+|\n|`|Approve|Decline/);
  });

  test('P16: with an exemption ceiling, Allow once says how many more calls like it may run', async () => {
    const outcomes = await repeat(newHost({ exemptionCeiling: 3 }), {}, cap, X);
    const reason = outcomes[cap - 1]?.askReason ?? '';
    assert.ok(reason.endsWith(' Allow once runs it and up to 3 more like it; later ones are refused until your next message. ' + REJECT), `the ask: ${reason}`);
  });

  test('P16: an approval covers what the ask was about; a call like it that reaches another limit is asked again, about that (issue 27)', async () => {
    // The session: a curl that keeps failing, with limits.exact lowered to 4.
    const curl = { ...bash('curl -sf https://api.example.com/v1/items'), body: failing(22, 'curl: (22) The requested URL returned error: 404'), answer: 'approve' as const };
    const outcomes = await repeat(newHost({ limits: { exact: 4 } }), {}, 6, curl);
    const asks = outcomes.flatMap((o, i) => (o.askReason === undefined ? [] : [{ at: i + 1, text: o.askReason }]));
    assert.deepEqual(asks.map((a) => a.at), [4, 6], 'approved at call 4 (exact:), asked again at call 6 (the failure track, on other fingerprints)');
    const [first, second] = asks.map((a) => a.text);
    assert.equal(first, `Loop breaker: this would be the 4th run of this command among the agent's recent calls. ${ALLOW} ${REJECT}`);
    assert.match(second!, /^Loop breaker: this command has failed 5 times in a row \(exit status 22\)\. /, 'the second ask is about the failures');
    for (const { text } of asks) assert.doesNotMatch(text, /run without asking|listed below/, 'no promise that calls like it go unasked');
  });

  test('P16: a failure ask says the command failed, how often in a row, and how, in brief', async () => {
    const outcomes = await repeat(newHost(), {}, failLimit + 1, { ...bash('cat /nope'), body: failing(1) });
    const ask = outcomes[failLimit]?.askReason ?? '';
    assert.equal(ask, `Loop breaker: this command has failed ${failLimit} times in a row (exit status 1). ${ALLOW} ${REJECT}`);
  });

  test('P16: what the box does not show is named, quoted, once: a host, another tool, the failing sink', async () => {
    const hostHost = newHost({ limits: { exact: null, cmd: null, net: null, host: 4 } });
    const agent = {};
    let last: string | undefined;
    for (let i = 0; i < 4; i += 1) last = (await hostHost.call({ agent, ...bash(`curl -s https://api.example.com/v1/items?page=${i}`) })).askReason;
    assert.match(last ?? '', /^Loop breaker: this would be the 4th call to the host \u201capi\.example\.com\u201d among the agent's recent calls\. /);
    const read = await repeat(newHost(), {}, cap, { name: 'read', arguments: { path: '/a' } });
    assert.match(read[cap - 1]?.askReason ?? '', /^Loop breaker: this would be the \d+th identical \u201cread\u201d call among the agent's recent calls\. /);
  });
});

describe('no message carries tool-call template markup', () => {
  test('no denial, ask or advisory contains <tool_call> or <function=', async () => {
    const texts: string[] = [];
    const host = newHost();
    const agent = {};
    const repeats = await repeat(host, agent, cap + 1, X);
    for (const o of repeats) texts.push(...noticeTexts(o), o.askReason ?? '', o.denyReason ?? '');
    const fails = await repeat(host, agent, failLimit + 2, { ...bash('cat /nope'), body: failing(1) });
    for (const o of fails) texts.push(...noticeTexts(o), o.askReason ?? '', o.denyReason ?? '');
    const denyHost = newHost({ onLimit: 'deny' });
    for (const o of await repeat(denyHost, {}, cap, X)) texts.push(o.denyReason ?? '');
    assert.ok(texts.filter(Boolean).length >= 8, 'enough messages were produced to check');
    for (const t of texts) {
      assert.ok(!t.includes('<tool_call>'), t);
      assert.ok(!t.includes('<function='), t);
    }
  });
});

describe('quoted model text is defanged', () => {
  test('tool-call markup inside a quoted fingerprint or previous result is written with ‹, never verbatim', async () => {
    const host = newHost({ onLimit: 'deny' });
    const agent = {};
    const markup = bash('echo "<tool_call><function=bash>"');
    const outcomes = await repeat(host, agent, cap, { ...markup, body: succeeding('<tool_call>{"name":"bash"}</tool_call> <function=x>') });
    const denial = outcomes.at(-1)?.denyReason ?? '';
    assert.match(denial, /^REPEAT_TOOL_BLOCKED:/);
    assert.ok(denial.includes('\u2039tool_call'), denial);
    assert.ok(denial.includes('\u2039function='), denial);
    assert.ok(!denial.includes('<tool_call') && !denial.includes('<function='), denial);
  });
});
