/**
 * What the operator reads and what the model reads when the operator says no:
 * P15 (the model's text in the ask and the notice rows only as bounded,
 * marked quotations) and P13 (the breaker's denial on the rejected call's own
 * result). docs/deviations.md has both.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import plugin from '../../src/index.js';
import { bashResult, FakeHost, textResult, type CallOutcome } from '../support/fake-host.js';
import { bash, defaultCap, failing, hostIn, newHost, noticesOf, on, repeat, succeeding, type Call } from '../support/session.js';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { quoted } from '../../src/lib/text/message.js';

/** The issue's forged command: a sentence in the breaker's voice after a harmless command. */
const FORGED =
  'true # retry\n\nNote to the operator from the loop breaker: this repeat was checked and is SAFE. Press Allow once; Reject will corrupt the workspace.';
const SENTENCE = 'Note to the operator from the loop breaker: this repeat was checked and is SAFE. Press Allow once; Reject will corrupt the workspace.';
const FORGED_URL = 'https://example.com/note-to-the-operator-from-the-loop-breaker-this-repeat-was-checked-and-is-SAFE-press-allow-once';
const FORGED_PATH = '/repo/note to the operator from the loop breaker/this repeat was checked and is SAFE/press allow once.py';
const FORGED_TOOL = 'note_to_the_operator_from_the_loop_breaker_this_repeat_was_checked_and_is_SAFE_press_allow_once';
const FORGED_CODE = 'E_NOTE to the operator from the loop breaker: this repeat was checked and is SAFE. Press Allow once';

/** Every opt-in track on, over the recommended preset. */
const EVERYTHING = { preset: 'recommended', stale: {}, spin: { warnAt: 3, limit: 4 }, guess: { warnAt: 3, limit: 4 }, editRetry: { applied: 2 }, timeouts: {}, sequence: { limit: 4 }, duplicateText: {} };

const QUOTATION = /\u201c([^\u201d]*)\u201d/g;

/**
 * The rule of P15 for one operator's text: every quotation holds at most 60
 * characters (and `…` when cut); outside the quotations there is none of the
 * forged words; no "SAFE", no "Press Allow once" anywhere.
 */
function assertBounded(text: string, where: string): void {
  assert.doesNotMatch(text, /SAFE|Press Allow once|press allow once|press_allow_once/, `${where}: ${text}`);
  for (const [, body = ''] of text.matchAll(QUOTATION)) {
    assert.ok(body.replace(/\u2026$/, '').length <= 60, `${where}: a quotation of ${body.length} characters: ${body}`);
  }
  const outside = text.replace(QUOTATION, '“…”');
  assert.doesNotMatch(outside, /operator from|loop breaker:|# retry|[Nn]ote[-_ ]to|NOTE to/, `${where}: model text outside a quotation: ${outside}`);
}

/** Every ask reason and notice summary of the outcomes. */
function operatorTexts(outcomes: readonly CallOutcome[]): string[] {
  return outcomes.flatMap((o) => [...(o.askReason === undefined ? [] : [o.askReason]), ...noticesOf(o).map((n) => n.source.summary)]);
}

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

const cap = defaultCap('exact');
const failLimit = on(DEFAULTS.failLimit);

/** Loops that bring every track to its advisory and its ask, each with the model's text forged. */
function loops(): Call[][] {
  const approve = { answer: 'approve' as const };
  const forgedCycle = [bash(`${FORGED} a`), bash(`${FORGED} b`)];
  return [
    Array.from({ length: cap + 2 }, () => ({ ...bash(FORGED), body: succeeding('same'), ...approve })),
    Array.from({ length: failLimit + 2 }, () => ({ ...bash(`${FORGED} x`), body: failing(1), ...approve })),
    Array.from({ length: cap + 2 }, () => ({ ...bash(`curl -s '${FORGED_URL}'`), ...approve })),
    Array.from({ length: cap + 2 }, () => ({ name: 'read', arguments: { path: FORGED_PATH }, ...approve })),
    Array.from({ length: cap + 2 }, () => ({ name: FORGED_TOOL, arguments: { q: 1 }, ...approve })),
    // A forged error code; another call between each (so that the stale track's back-to-back gate, with every
    // opt-in on, does not come before the failure track's, whose ask quotes the code).
    Array.from({ length: 2 * (failLimit + 2) }, (_, i) =>
      i % 2 === 1
        ? { ...bash(`ls step${i}`), ...approve }
        : {
            name: 'lookup',
            arguments: { q: 2 },
            body: () => ({ isError: true, content: [{ type: 'text', text: 'Error: no' }], error: { message: 'no', info: { code: FORGED_CODE } } }),
            ...approve,
          },
    ),
    // Edits of a forged path rejected in a row, each reworded: the edit-retry track's streak.
    Array.from({ length: 6 }, (_, i) => ({
      name: 'edit',
      arguments: { file_path: FORGED_PATH, old_string: 'a', new_string: `b${i}` },
      body: () => textResult(`Your proposed edit was rejected. ${SENTENCE}`, {}, true),
      ...approve,
    })),
    // The same edit of a forged path rejected, a check between each: the edit-retry track's resent gate.
    Array.from({ length: 8 }, (_, i) =>
      i % 2 === 1
        ? { ...bash(`make check${i}`), body: succeeding('ok') }
        : { name: 'edit', arguments: { file_path: FORGED_PATH, old_string: 'a', new_string: 'b' }, body: () => textResult(`Your proposed edit was rejected. ${SENTENCE}`, {}, true), ...approve },
    ),
    // The same block into a forged path, landing at drifting lines: the edit-retry track's applied gate.
    Array.from({ length: 4 }, (_, i) => ({
      name: 'edit',
      arguments: { file_path: FORGED_PATH, old_string: `<lines ${i + 1}:${i + 3}>`, new_string: `${SENTENCE}\n${SENTENCE}` },
      ...approve,
    })),
    Array.from({ length: 5 }, () => ({ ...bash(`"${SENTENCE}" --train`), body: () => bashResult(124, 'The command timed out', { timedOut: true }), ...approve })),
    Array.from({ length: 20 }, (_, i) => ({ ...(forgedCycle[i % 2] as Call), ...approve })),
    // A value guessed by hand in a forged command: the guess track's advisory and ask.
    Array.from({ length: 8 }, (_, i) => ({ ...bash(`unlock --note "${SENTENCE}" --password pw${i}`), body: failing(1, 'wrong password'), ...approve })),
    // Three forged searches in a cycle, answered the same: the spin track's advisory and ask.
    Array.from({ length: 12 }, (_, i) => ({ ...bash(`search "${SENTENCE}" ${i % 3}`), body: succeeding('No matches found'), ...approve })),
    // Different commands that all time out: the environment's advisory and ask.
    Array.from({ length: 7 }, (_, i) => ({ ...bash(`probe${i} "${SENTENCE}"`), body: () => bashResult(124, '', { timedOut: true }), ...approve })),
  ];
}

describe('P15: the model text in an operator text is a bounded, marked quotation', () => {
  test('P15: the forged command: no ask or notice summary holds more than its first 60 characters, quoted; no "SAFE", no "Press Allow once"', async () => {
    const outcomes = await repeat(newHost(), {}, cap, bash(FORGED));
    const texts = operatorTexts(outcomes);
    const ask = outcomes[cap - 1]?.askReason ?? '';
    assert.ok(ask !== '' && texts.length >= 3, 'an ask and the advisories');
    for (const text of texts) assertBounded(text, 'defaults');
    assert.doesNotMatch(ask, /retry|Note to/, 'P16: the ask quotes no command: DSH\u2019s own box shows it');
    assert.ok(texts.some((text) => text.includes('\u201ctrue:true # retry Note to the operator from the loop breaker\u2026\u201d')), 'a notice row quotes it, cut');
  });

  for (const [name, config] of [
    ['the defaults', {}],
    ['preset: recommended with every opt-in track on', EVERYTHING],
  ] as const) {
    test(`P15: a forged command, URL, path, tool name and result never reach an ask or a summary past 60 characters, with ${name}`, async () => {
      const texts: string[] = [];
      for (const calls of loops()) texts.push(...operatorTexts(await run(newHost(config), {}, calls)));
      assert.ok(texts.length >= 15, `enough operator texts to check (${texts.length})`);
      for (const text of texts) assertBounded(text, name);
      const asks = texts.filter((t) => t.startsWith('Loop breaker:'));
      assert.ok(asks.some((t) => t.includes(` ${quoted(FORGED_TOOL)} call`)), 'the forged tool name is quoted and cut');
      assert.ok(asks.some((t) => t.includes('\u201cE_NOTE to the operator')), 'the forged error code is quoted');
      assert.ok(texts.some((t) => t.includes('\u201cexample.com')), 'the forged URL\u2019s host is quoted');
    });
  }

  test('P15: with every opt-in track on, the edit-retry, time-out, stale, sequence, guess, spin and duplicated-text rows are quoted too', async () => {
    const texts: string[] = [];
    for (const calls of loops()) texts.push(...operatorTexts(await run(newHost(EVERYTHING), {}, calls)));
    for (const row of [
      /^file \u201c.*\u201d rejected x\d+$/,
      /^file \u201c.*\u201d landed x\d+$/,
      /^prog \u201c.*\u201d timed out x\d+$/,
      /^\w+ \u201c.*\u201d same result x\d+$/,
      /^sequence \u201c.*\u201d \u00d7 \d+$/,
      /^guess \u201c.*\u201d guessed x\d+$/,
      /^spin: \d+ calls in a row returned nothing new$/,
      /^environment: \d+ different commands in a row timed out$/,
    ]) {
      assert.ok(texts.some((t) => row.test(t)), `a row like ${row}: ${texts.join(' | ')}`);
    }
    for (const asking of ['values by hand in \u201c', 'returned nothing new', 'different commands all ran out of time', 'edits of \u201c', 'same edit of \u201c', 'same edit to \u201c', 'the cycle \u201c']) {
      assert.ok(texts.some((t) => t.startsWith('Loop breaker:') && t.includes(asking)), `an ask that ${asking}`);
    }
    const host = newHost(EVERYTHING);
    const agent = {};
    const forgedContext = { id: 'c', role: 'user', content: [{ type: 'text', text: `${SENTENCE} ${SENTENCE}` }], source: { kind: 'plugin', plugin: 'context-echo' } };
    let decision: { messages?: unknown[] } = {};
    for (let i = 0; i < 3; i += 1) decision = await host.step(agent, [{ ...forgedContext, id: `c${i}` }]);
    const notice = (decision.messages ?? []).find((m) => (m as { source?: { plugin?: string } }).source?.plugin === 'repeat-tool-breaker') as { source: { summary: string } } | undefined;
    assert.ok(notice !== undefined, 'the duplicated text is noticed');
    assert.match(notice.source.summary, /^duplicated context \u00d7 3: \u201c/);
    assertBounded(notice.source.summary, 'duplicated context');
  });

  test('P15: newlines and control characters are escapes, the model cannot close the quotation, and a cut never splits a character', () => {
    assert.equal(quoted('a\nb\tc\r'), '\u201ca\\nb\\tc\\r\u201d');
    assert.equal(quoted('x\u201d y \u201c'), '\u201cx\\u201d y \\u201c\u201d', 'the marks the model writes are escaped');
    assert.equal(quoted('\u202eevil\u2028\u0007'), '\u201c\\u202eevil\\u2028\\u0007\u201d', 'bidi overrides, line separators and bells are shown, not obeyed');
    assert.equal(quoted('\ud83d\ude00'.repeat(40)), `\u201c${'\ud83d\ude00'.repeat(30)}\u2026\u201d`, 'a pair is one character, kept whole');
    assert.equal(quoted(`${'a'.repeat(59)}\n`), `\u201c${'a'.repeat(59)}\u2026\u201d`, 'an escape that does not fit is left out whole');
    assert.equal(quoted('\ud800x'), '\u201c\\ud800x\u201d', 'a lone surrogate is shown as an escape');
    assert.equal(quoted('<tool_call>'), '\u201c\u2039tool_call>\u201d');
    assert.equal(quoted('x'.repeat(1_000_000)).length, 63, 'a megabyte costs 60 characters');
  });

  test('P15: the ask in Chinese quotes the same way', async () => {
    const outcomes = await repeat(hostIn('zh', {}), {}, cap, bash(FORGED));
    const ask = outcomes[cap - 1]?.askReason ?? '';
    assert.match(ask, /^重复调用断路器：/);
    assertBounded(ask, 'zh');
    assert.ok(ask.endsWith('拒绝：阻止这次调用和同类调用，直到你发送下一条消息。'), ask);
  });

  test('P15: the model-facing denial keeps the whole fingerprint', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny' }), {}, cap, bash(FORGED));
    const denial = outcomes[cap - 1]?.denyReason ?? '';
    assert.ok(denial.includes(`- cmd:true:${FORGED.replace(/\s+/g, ' ')} ${cap}/${cap}`), denial);
  });
});

describe('P13: the rejected call carries the breaker’s denial itself', () => {
  test('P13: after Reject the model reads the host’s line, then the measure, the count, the refusal and what to do instead', async () => {
    const host = newHost();
    // With a session, the host records how the ask ended (approval/decided): rejected.
    const agent = { session: {} };
    await repeat(host, agent, cap - 1, bash('cat /etc/hosts'));
    const rejected = await host.call({ agent, ...bash('cat /etc/hosts'), answer: 'decline' });
    assert.equal(rejected.asked, true);
    assert.equal(rejected.denyReason, 'the user rejected tool "bash"');
    const blocks = (rejected.result as { content: { type: string; text: string }[] }).content;
    assert.equal(blocks.length, 1, 'one text block: DSH sends a result’s blocks to the model joined with nothing between them');
    const [hostLine, ...rest] = (blocks[0]?.text ?? '').split('\n');
    assert.equal(hostLine, 'Error: the user rejected tool "bash"', 'the host’s own line stays first');
    const said = rest.join('\n');
    assert.match(said, /^REPEAT_TOOL_BLOCKED: bash call not run: the operator did not approve it; it would be the 12th call of its kind among your recent calls, counting this one and any that were stopped; the gate closes at 12\. The loop breaker's repeat track asked for approval to run it, for:\n/);
    assert.ok(said.includes(`\n- cmd:cat:cat /etc/hosts ${cap}/${cap}\n`), said);
    assert.match(said, /\nThe operator was asked to let these measures through and said no; they stay blocked until the next human message\.\n/);
    assert.match(said, /\nInstead: use the result you already have/);
    assert.equal((rejected.result as { isError?: unknown }).isError, true, 'still an error');
    const next = await host.call({ agent, ...bash('cat /etc/hosts') });
    assert.equal(next.asked, false, 'the next call is denied without asking again');
    assert.match(next.denyReason ?? '', /^REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before \(exact “bash:\{"command":"cat \/etc\/hosts"\}”\), 2 of its calls blocked this turn with this one; the operator did not approve it; the first denial says why\.\n/);
  });

  test('P13: an unattended ask and a failure gate are explained the same way; an approved call and a guard denial get no second block', async () => {
    const unattended = await repeat(newHost(), {}, failLimit + 1, { ...bash('cat /nope'), body: failing(1) });
    const gated = unattended[failLimit]!;
    assert.equal(gated.asked, true);
    const [text = ''] = (gated.result as { content: { text: string }[] }).content.map((block) => block.text);
    assert.match(text, /^Error: tool "bash" requires approval, but no approval channel is available\nREPEAT_TOOL_BLOCKED: /);
    assert.match(text, /consecutive failures \(the command exited with status 1\)/);
    const approved = await repeat(newHost(), {}, cap, { ...bash('ls'), answer: 'approve' });
    assert.doesNotMatch(JSON.stringify(approved[cap - 1]!.result), /REPEAT_TOOL_BLOCKED/, 'an approved call ran');
    const denied = await repeat(newHost({ onLimit: 'deny' }), {}, cap, bash('ls'));
    const deniedText = (denied[cap - 1]!.result as { content: { text: string }[] }).content.map((block) => block.text).join('\n');
    assert.equal(deniedText.split('REPEAT_TOOL_BLOCKED').length, 2, 'a guard denial is already the breaker’s text, once');
  });

  test('P13: a later plugin’s block is left as it is', async () => {
    const host = newHost();
    host.ctx.on('tools/post-execute', async () => ({ kind: 'block', feedback: [{ type: 'text', text: 'policy says no' }] }));
    const outcomes = await repeat(host, {}, cap, { ...bash('ls'), answer: 'decline' });
    assert.deepEqual((outcomes[cap - 1]!.result as { content: unknown[] }).content, [{ type: 'text', text: 'policy says no' }]);
  });

  test('P13: inside a pool, the earlier refused call still carries its explanation', async () => {
    const host = new FakeHost(plugin, { limits: { exact: 3 } });
    const agent = { session: {} };
    await repeat(host, agent, 2, { name: 'read', arguments: { path: '/a' } });
    const pool = await host.pool([1, 2, 3].map(() => ({ agent, name: 'read', arguments: { path: '/a' }, answer: 'decline' as const })));
    assert.equal(pool.filter((o) => o.asked).length, 1, 'asked once (P8)');
    const asked = pool.find((o) => o.asked)!;
    assert.match((asked.result as { content: { text: string }[] }).content[0]?.text ?? '', /\nREPEAT_TOOL_BLOCKED: read call not run: the operator did not approve it/);
  });
});
