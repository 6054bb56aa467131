/**
 * The duplicated-context track (opt-in): its config, its normalisation and
 * fingerprint, the book behind it (window, cooldown, replayed ids, own notices,
 * bounds) on a fake clock, and the hook through the fake host.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, resolveConfig, type DuplicateTextConfig } from '../../src/lib/config/config.js';
import { DUPLICATE_TEXT_DEFAULTS } from '../../src/lib/tracks/duplicate-text.meta.js';
import {
  createDuplicateText,
  duplicateMessage,
  fingerprintText,
  ID_LIMIT,
  normalizeText,
  PREVIEW_CHARS,
  sourceLabel,
  TEXT_LIMIT,
} from '../../src/lib/tracks/duplicate-text.js';
import { createNotice } from '../../src/lib/text/notice.js';
import { createApply } from '../../src/index.js';
import { FakeHost } from '../support/fake-host.js';
import { captureHooks, type PluginLike } from '../robustness/hooks.js';
import { bash, noticesOf, repeat } from '../support/session.js';

const PREFIX = 'repeat-tool-breaker: ';
const ON: DuplicateTextConfig = DUPLICATE_TEXT_DEFAULTS;

/** A large text, different for each `seed`. */
function bigText(seed = 'notes', chars = 2000): string {
  const line = `${seed}: the deployment notes say the staging database is read-only on weekends.\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

let ids = 0;
function message(text: string | string[], source: Record<string, unknown> = { kind: 'plugin', plugin: 'context-echo' }, id = `m-${++ids}`) {
  const texts = Array.isArray(text) ? text : [text];
  return Object.freeze({ id, role: 'user', content: texts.map((t) => ({ type: 'text', text: t })), source });
}

const enter = (messages: unknown[]) => ({ kind: 'enter', messages });

/** A track on a clock the test moves; `step` runs one pre-step and returns what was appended. */
function rig(cfg: Partial<DuplicateTextConfig> = {}) {
  let clock = 1_000_000;
  const track = createDuplicateText({ ...ON, ...cfg }, () => clock);
  const agent = {};
  return {
    agent,
    advance(ms: number) {
      clock += ms;
    },
    step(messages: unknown[], who: object = agent): any[] {
      const decision = track.review({ agent: who, messages }, enter(messages)) as { messages: unknown[] };
      assert.deepEqual(decision.messages.slice(0, messages.length), messages, 'the claimed messages enter unchanged, in order');
      return decision.messages.slice(messages.length);
    },
    track,
  };
}

function throwsNaming(config: unknown, ...parts: string[]): void {
  assert.throws(
    () => resolveConfig(config),
    (error: unknown) => {
      assert.ok(error instanceof Error, 'a bad config throws an Error');
      assert.ok(error.message.startsWith(PREFIX), error.message);
      for (const part of parts) assert.ok(error.message.includes(part), `"${error.message}" should mention ${part}`);
      return true;
    },
  );
}

describe('duplicateText config', () => {
  test('the track is off by default', () => {
    assert.equal(DEFAULTS.duplicateText, null);
    assert.equal(resolveConfig({}).duplicateText, null);
    assert.equal(resolveConfig({ duplicateText: null }).duplicateText, null);
  });

  test('an empty mapping turns it on with minChars 80, threshold 3, a 120 s window and a 30 s cooldown', () => {
    assert.deepEqual(resolveConfig({ duplicateText: {} }).duplicateText, {
      minChars: 80,
      threshold: 3,
      windowMs: 120000,
      cooldownMs: 30000,
    });
  });

  test('each setting may be given alone; the others keep their defaults', () => {
    assert.deepEqual(resolveConfig({ duplicateText: { threshold: 5 } }).duplicateText, { ...DUPLICATE_TEXT_DEFAULTS, threshold: 5 });
    assert.deepEqual(resolveConfig({ duplicateText: { cooldownMs: 0, minChars: 1, windowMs: 1, threshold: 2 } }).duplicateText, {
      minChars: 1,
      threshold: 2,
      windowMs: 1,
      cooldownMs: 0,
    });
  });

  test('a value that is not a mapping is rejected with the way to turn it on', () => {
    throwsNaming({ duplicateText: true }, '`duplicateText`', 'true', '{}');
    throwsNaming({ duplicateText: 3 }, '`duplicateText`', '3', 'null');
    throwsNaming({ duplicateText: [] }, '`duplicateText`', '[]');
  });

  test('an unknown sub-key is rejected and the settings are listed', () => {
    throwsNaming(
      { duplicateText: { minchars: 80 } },
      '`duplicateText.minchars`',
      '`minChars`',
      '`threshold`',
      '`windowMs`',
      '`cooldownMs`',
    );
  });

  const bad: [string, unknown, string][] = [
    ['minChars', 0, '>= 1'],
    ['minChars', 1.5, '>= 1'],
    ['threshold', 1, '>= 2'],
    ['threshold', '3', '>= 2'],
    ['windowMs', 0, '>= 1'],
    ['windowMs', Number.POSITIVE_INFINITY, '>= 1'],
    ['cooldownMs', -1, '>= 0'],
    ['cooldownMs', null, '>= 0'],
  ];
  for (const [key, value, floor] of bad) {
    test(`duplicateText.${key}: ${String(value)} is rejected naming the key, the value and the floor`, () => {
      throwsNaming(
        { duplicateText: { [key]: value } },
        `\`duplicateText.${key}\``,
        floor,
        `got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
      );
    });
  }
});

describe('text normalisation and fingerprint', () => {
  test('CRLF, CR, trailing spaces and tabs, and trailing blank lines do not make a text different', () => {
    const plain = 'alpha\nbeta gamma\n\ndelta';
    for (const variant of [
      'alpha\r\nbeta gamma\r\n\r\ndelta',
      'alpha  \rbeta gamma\t\n \ndelta\n\n',
      'alpha\nbeta gamma   \n\ndelta  \r\n',
    ]) {
      assert.equal(normalizeText(variant), plain);
      assert.equal(fingerprintText(normalizeText(variant)), fingerprintText(plain));
    }
  });

  test('leading spaces and inner spacing still tell texts apart', () => {
    assert.notEqual(normalizeText('  indented'), normalizeText('indented'));
    assert.notEqual(normalizeText('a  b'), normalizeText('a b'));
  });

  test('a fingerprint is a SHA-256 digest, not the text', () => {
    assert.match(fingerprintText(bigText()), /^[A-Za-z0-9+/]{43}=$/);
  });

  test('a source is its kind plus the plugin or name that produced it', () => {
    assert.equal(sourceLabel({ source: { kind: 'user' } }), 'user');
    assert.equal(sourceLabel({ source: { kind: 'plugin', plugin: 'context-echo', form: 'notice' } }), 'plugin:context-echo');
    assert.equal(sourceLabel({ source: { kind: 'skill-invocation', name: 'deploy' } }), 'skill-invocation:deploy');
    assert.equal(sourceLabel({}), 'unknown');
    assert.ok(
      sourceLabel({ source: { kind: 'plugin', plugin: 'p'.repeat(10_000) } }).length <= 60,
      'a long plugin name is cut to 60 characters',
    );
  });
});

describe('the duplicated-context book', () => {
  test('the same large text in three messages earns one notice on the third, appended after them', () => {
    const r = rig();
    const text = bigText();
    assert.deepEqual(r.step([message(text)]), []);
    r.advance(1000);
    assert.deepEqual(r.step([message(text)]), []);
    r.advance(1000);
    const added = r.step([message(text)]);
    assert.equal(added.length, 1);
    const notice = added[0];
    assert.equal(notice.role, 'user');
    assert.deepEqual(
      { ...notice.source, summary: undefined },
      { kind: 'plugin', plugin: 'repeat-tool-breaker', form: 'notice', summary: undefined },
    );
    assert.ok(Object.isFrozen(notice), 'the notice is frozen');
    const said: string = notice.content[0].text;
    assert.match(said, /^DUPLICATED_CONTEXT: /);
    assert.match(said, /3 times in 3 messages, from plugin:context-echo ×3/);
    assert.match(said, /\(2000 characters\)/);
    assert.match(said, /"context-echo|"notes: the deployment notes/);
    assert.ok(notice.source.summary.length <= 120, String(notice.source.summary));
    assert.match(notice.source.summary, /^duplicated context × 3: \u201cnotes: the deployment/);
  });

  test('the notice quotes a short preview, never the whole text', () => {
    const r = rig();
    const text = bigText('x', 50_000);
    r.step([message(text)]);
    r.step([message(text)]);
    const [notice] = r.step([message(text)]);
    const said: string = notice.content[0].text;
    assert.ok(said.length < 1000, `notice is ${said.length} characters`);
    const quoted = said.match(/^- "(.*)" \(50000 characters\)/m)?.[1] ?? '';
    assert.ok(quoted.startsWith('x: the deployment notes say'), quoted);
    assert.equal(quoted.length, PREVIEW_CHARS + 1, 'the preview and an ellipsis');
    assert.ok(quoted.endsWith('\u2026'), 'the preview ends with an ellipsis');
  });

  test('texts shorter than minChars are not counted', () => {
    const r = rig({ minChars: 80 });
    const short = 'x'.repeat(79);
    for (let i = 0; i < 5; i += 1) assert.deepEqual(r.step([message(short)]), []);
    // Trailing spaces do not lift a text over minChars.
    for (let i = 0; i < 5; i += 1) assert.deepEqual(r.step([message(`${short}     \n\n`)]), []);
  });

  test('variants that differ only in line endings and trailing spaces are one text', () => {
    const r = rig();
    const text = bigText();
    r.step([message(text)]);
    r.step([message(text.replace(/\n/g, '\r\n'))]);
    assert.equal(r.step([message(text.replace(/\n/g, '   \n'))]).length, 1);
  });

  test('a replayed message id never counts', () => {
    const r = rig();
    const text = bigText();
    const first = message(text);
    r.step([first]);
    r.step([first]);
    r.step([first, first]);
    assert.deepEqual(r.step([message(text, undefined, first.id)]), [], 'a copy under the same id is the same message');
    assert.equal(r.step([message(text)]).length, 0, 'one new id: two occurrences so far');
    assert.equal(r.step([message(text)]).length, 1, 'the third id earns the notice');
  });

  test("this plugin's own notices never count, whatever they repeat", () => {
    const r = rig();
    const text = bigText();
    const own = () => {
      const notice = createNotice(text, 'x');
      return notice;
    };
    for (let i = 0; i < 5; i += 1) assert.deepEqual(r.step([own()]), []);
    r.step([message(text)]);
    r.step([message(text)]);
    assert.equal(r.step([message(text)]).length, 1, 'the three foreign copies still count');
  });

  test('repeats inside one message count', () => {
    const r = rig();
    const text = bigText();
    const [notice] = r.step([message([text, 'short', text, text])]);
    assert.ok(notice, 'three copies in one message');
    assert.match(notice.content[0].text, /3 times in 1 message, from plugin:context-echo ×3/);
  });

  test('the sources seen are named, most frequent first', () => {
    const r = rig({ threshold: 4 });
    const text = bigText();
    r.step([message(text, { kind: 'user' })]);
    r.step([message(text, { kind: 'skill-invocation', name: 'deploy', form: 'instructions' }), message(text, { kind: 'user' })]);
    const [notice] = r.step([message(text, { kind: 'user' })]);
    assert.match(notice.content[0].text, /4 times in 4 messages, from user ×3, skill-invocation:deploy ×1/);
  });

  test('only occurrences within windowMs count', () => {
    const r = rig({ windowMs: 10_000 });
    const text = bigText();
    r.step([message(text)]);
    r.advance(6000);
    r.step([message(text)]);
    r.advance(6000);
    assert.deepEqual(r.step([message(text)]), [], 'the first occurrence is 12 s old');
    r.advance(1000);
    assert.equal(r.step([message(text)]).length, 1, 'three within 10 s');
  });

  test('after a notice the text is silent for cooldownMs, then needs threshold occurrences in the window again', () => {
    const r = rig({ cooldownMs: 30_000 });
    const text = bigText();
    for (let i = 0; i < 2; i += 1) r.step([message(text)]);
    assert.equal(r.step([message(text)]).length, 1);
    for (let i = 0; i < 4; i += 1) {
      r.advance(1000);
      assert.deepEqual(r.step([message(text)]), [], `cooling down, occurrence ${i + 1}`);
    }
    r.advance(30_000);
    assert.equal(r.step([message(text)]).length, 1, 'the cooldown is over and three recent occurrences are in the window');
  });

  test('with no cooldown a notice needs threshold new occurrences, and one text is listed once per step', () => {
    const r = rig({ cooldownMs: 0 });
    const text = bigText();
    const [notice] = r.step([message([text, text, text, text, text, text, text])]);
    assert.equal((notice.content[0].text.match(/^- /gm) ?? []).length, 1);
    assert.deepEqual(r.step([message(text)]), []);
    r.step([message(text)]);
    assert.equal(r.step([message(text)]).length, 1);
  });

  test('several texts in one step share one notice', () => {
    const r = rig({ threshold: 2 });
    const a = bigText('alpha');
    const b = bigText('beta');
    r.step([message([a, b])]);
    const added = r.step([message([a, b])]);
    assert.equal(added.length, 1);
    assert.match(added[0].content[0].text, /^DUPLICATED_CONTEXT: 2 texts have/);
    assert.match(added[0].content[0].text, /"alpha: /);
    assert.match(added[0].content[0].text, /"beta: /);
  });

  test('agents are counted apart', () => {
    const r = rig();
    const text = bigText();
    const other = {};
    r.step([message(text)]);
    r.step([message(text)], other);
    r.step([message(text)], other);
    assert.equal(r.step([message(text)]).length, 0, 'two for the main agent');
    assert.equal(r.step([message(text)], other).length, 1, 'three for the other');
  });

  test('a rejected step passes untouched and counts nothing', () => {
    const r = rig();
    const text = bigText();
    const reject = { kind: 'reject' };
    for (let i = 0; i < 4; i += 1) assert.equal(r.track.review({ agent: r.agent, messages: [message(text)] }, reject), reject);
    r.step([message(text)]);
    assert.deepEqual(r.step([message(text)]), [], 'the rejected claims were not counted');
  });

  test('the decision keeps its other fields and the claimed messages are the same objects', () => {
    const r = rig({ threshold: 2 });
    const text = bigText();
    const claimed = [message(text), message(text)];
    const decision = { kind: 'enter', messages: claimed, extra: 7 };
    const out = r.track.review({ agent: r.agent, messages: claimed }, decision) as { kind: string; messages: unknown[]; extra: number };
    assert.equal(out.extra, 7);
    assert.equal(out.messages[0], claimed[0]);
    assert.equal(out.messages[1], claimed[1]);
    assert.equal(out.messages.length, 3);
    assert.equal(decision.messages.length, 2, 'the downstream decision was not mutated');
  });

  test('a forgotten text starts again: the book keeps TEXT_LIMIT texts, least recently seen out first', () => {
    const r = rig();
    const text = bigText('kept');
    r.step([message(text)]);
    r.step([message(text)]);
    for (let i = 0; i < TEXT_LIMIT; i += 1) r.step([message(`${i} ${'y'.repeat(100)}`)]);
    assert.deepEqual(r.step([message(text)]), [], 'the two earlier occurrences were evicted');
    r.step([message(text)]);
    assert.equal(r.step([message(text)]).length, 1);
  });

  test('the book remembers ID_LIMIT message ids, oldest out first', () => {
    const r = rig();
    const text = bigText();
    const first = message(text);
    r.step([first]);
    for (let i = 0; i < ID_LIMIT; i += 1) r.step([message('tiny')]);
    r.step([first]);
    assert.equal(r.step([message(text)]).length, 1, 'the evicted id counted again');
  });

  test('the notice wording lists at most three texts', () => {
    const found = Array.from({ length: 5 }, (_, i) => ({
      preview: `text ${i}`,
      length: 100,
      count: 3,
      messages: 3,
      sources: [['user', 3]] as const,
    }));
    const said = duplicateMessage(found, 120_000);
    assert.match(said, /^DUPLICATED_CONTEXT: 5 texts have entered this conversation repeatedly within 120 s\./);
    assert.equal((said.match(/^- "/gm) ?? []).length, 3);
    assert.match(said, /^- and 2 more$/m);
  });
});

describe('the duplicated-context hook through the fake host', () => {
  function host(config: unknown) {
    let clock = 0;
    const fake = new FakeHost({ apply: createApply({ now: () => clock }) }, config);
    return { fake, advance: (ms: number) => (clock += ms) };
  }

  test('off by default: the pre-step listener returns exactly what next() returned, the same value, synchronously', () => {
    const hooks = captureHooks({ apply: createApply({ now: () => 0 }) } as PluginLike);
    const downstream = Promise.resolve({ kind: 'enter', messages: [] });
    assert.equal(
      hooks.step({ agent: {}, messages: [message(bigText())] }, () => downstream),
      downstream,
    );
  });

  test('off by default: pre-step returns the downstream decision untouched', async () => {
    const { fake } = host({});
    const text = bigText();
    for (let i = 0; i < 5; i += 1) {
      const claimed = [message(text)];
      const decision = await fake.step({}, claimed);
      assert.deepEqual(decision, { kind: 'enter', messages: claimed });
    }
  });

  test('on: the third copy of a tool-result context brings one notice into the step; the claimed messages are unchanged', async () => {
    const { fake, advance } = host({ duplicateText: {} });
    const agent = {};
    const text = bigText();
    const entered: unknown[][] = [];
    for (let i = 0; i < 4; i += 1) {
      const claimed = [message(text)];
      const decision = await fake.step(agent, claimed);
      assert.equal(decision.kind, 'enter');
      assert.deepEqual(decision.messages?.slice(0, 1), claimed);
      entered.push(decision.messages?.slice(1) ?? []);
      advance(2000);
    }
    assert.deepEqual(
      entered.map((added) => added.length),
      [0, 0, 1, 0],
      'one notice, then silence during the cooldown',
    );
  });

  test('on: a human message still resets the tool tracks, and the duplicated-context book is not reset by it', async () => {
    const { fake } = host({ duplicateText: { threshold: 2 }, onLimit: 'deny', limits: { exact: 3 } });
    const agent = {};
    const outcomes = await repeat(fake, agent, 3, bash('cat /etc/hosts'));
    assert.equal(outcomes[2]?.denied, true);
    const text = bigText();
    await fake.step(agent, [message(text)]);
    const decision = await fake.step(agent, [message(text, { kind: 'user' })]);
    assert.equal(decision.messages?.length, 2, 'the human copy is the second occurrence');
    const after = await repeat(fake, agent, 1, bash('cat /etc/hosts'));
    assert.equal(after[0]?.denied, false, 'the human message reset the window');
    assert.ok(after.every((o) => noticesOf(o).length === 0), 'the call after the human message gets no notice');
  });

  test('on: the tool hooks are unchanged (the track lives in pre-step only)', async () => {
    const { fake } = host({ duplicateText: {}, onLimit: 'deny' });
    const off = new FakeHost({ apply: createApply({ now: () => 0 }) }, { onLimit: 'deny' });
    const a = await repeat(fake, {}, 14, bash('echo same'));
    const b = await repeat(off, {}, 14, bash('echo same'));
    const view = (o: (typeof a)[number]) => [o.denied, o.denyReason?.split('\n')[0], noticesOf(o).map((n) => n.source.summary)];
    assert.deepEqual(a.map(view), b.map(view));
  });
});
