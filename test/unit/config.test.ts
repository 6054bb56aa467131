/**
 * Fail-loud configuration: the merge (§1.3), every validation check in order
 * (§1.4), the removed keys (§1.5) and the undefined-valued quirk (§3.7 Q7).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, mergeConfig, resolveConfig, resolveConfigIn, validateConfig } from '../../src/lib/config/config.js';
import { bash, deniedAt, newHost, noticedAt, on, repeat } from '../support/session.js';

const PREFIX = 'repeat-tool-breaker: ';

/** Resolving `config` throws a prefixed Error whose message mentions every part. */
function throwsNaming(config: unknown, ...parts: string[]): string {
  let message = '';
  assert.throws(
    () => resolveConfig(config),
    (error: unknown) => {
      assert.ok(error instanceof Error, 'throws an Error');
      message = error.message;
      assert.ok(message.startsWith(PREFIX), message);
      for (const part of parts) assert.ok(message.includes(part), `"${message}" should mention ${part}`);
      return true;
    },
  );
  return message;
}

const asRecord = (value: unknown) => value as Record<string, unknown>;

describe('the shipped defaults', () => {
  test('DEFAULTS is frozen at every level', () => {
    assert.ok(Object.isFrozen(DEFAULTS), 'DEFAULTS is frozen');
    for (const key of ['limits', 'ignoreArgs', 'hostAliases', 'exclude', 'include'] as const) {
      assert.ok(Object.isFrozen(DEFAULTS[key]), key);
    }
    for (const list of Object.values(DEFAULTS.ignoreArgs)) assert.ok(Object.isFrozen(list), 'every ignoreArgs list is frozen');
  });

  test('the non-numeric defaults are the documented ones', () => {
    assert.equal(DEFAULTS.localHosts, 'deny');
    assert.equal(DEFAULTS.onLimit, 'ask');
    assert.equal(DEFAULTS.includeLocal, false);
    assert.deepEqual([...DEFAULTS.exclude], ['todo_write']);
    assert.deepEqual([...DEFAULTS.include], []);
    assert.deepEqual(DEFAULTS.hostAliases, {
      'open-data.canada.ca': 'open.canada.ca',
      'www.open.canada.ca': 'open.canada.ca',
      'www.open-data.canada.ca': 'open.canada.ca',
    });
    const shell = ['description', 'timeoutMs', 'run_in_background', 'justification'];
    assert.deepEqual(DEFAULTS.ignoreArgs, {
      '*': ['description', 'timeoutMs', 'run_in_background', 'justification', 'reason', 'title', 'comment'],
      bash: shell,
      pwsh: shell,
      shell,
    });
    const limits = asRecord(DEFAULTS.limits);
    for (const uncapped of ['site', 'family:http-fetch', 'verb:curl', 'verb:wget']) assert.equal(limits[uncapped], null, uncapped);
    for (const capped of ['exact', 'cmd', 'net', 'sink', 'host']) assert.equal(typeof limits[capped], 'number', capped);
  });

  test('no config, undefined and {} all resolve to the defaults', () => {
    for (const config of [undefined, {}]) {
      const cfg = resolveConfig(config);
      assert.equal(cfg.window, DEFAULTS.window);
      assert.equal(cfg.warnAt, DEFAULTS.warnAt);
      assert.equal(cfg.failLimit, DEFAULTS.failLimit);
      assert.deepEqual(cfg.limits, DEFAULTS.limits);
      assert.deepEqual(cfg.ignoreArgs, DEFAULTS.ignoreArgs);
    }
    assert.equal(resolveConfig().onLimit, 'ask');
  });

  test('resolving a config never mutates DEFAULTS', () => {
    const before = JSON.stringify(DEFAULTS);
    resolveConfig({ limits: { exact: 3 }, ignoreArgs: { bash: ['x'] }, hostAliases: { 'a.com': 'b.com' }, exclude: ['y'] });
    assert.equal(JSON.stringify(DEFAULTS), before);
  });

  test('validateConfig(mergeConfig(c)) is resolveConfig(c)', () => {
    const config = { window: 8, limits: { exact: 3 } };
    assert.deepEqual(validateConfig(mergeConfig(config)), resolveConfig(config));
  });
});

describe('merge rules (§1.3)', () => {
  for (const bad of [null, [], 'deny', 5, true]) {
    test(`a config that is not a plain object (${JSON.stringify(bad)}) throws`, () => {
      const message = throwsNaming(bad, 'config');
      assert.match(message, /object/);
    });
  }

  test('scalars replace the default', () => {
    const cfg = resolveConfig({ window: 8, onLimit: 'deny', previewChars: 50 });
    assert.equal(cfg.window, 8);
    assert.equal(cfg.onLimit, 'deny');
    assert.equal(cfg.previewChars, 50);
  });

  test('ignoreArgs merges one level deep: a user list replaces that tool’s list, * stays', () => {
    const cfg = resolveConfig({ ignoreArgs: { bash: ['workdir'] } });
    assert.deepEqual([...(cfg.ignoreArgs.bash ?? [])], ['workdir']);
    assert.deepEqual(cfg.ignoreArgs['*'], DEFAULTS.ignoreArgs['*']);
    assert.deepEqual(cfg.ignoreArgs.pwsh, DEFAULTS.ignoreArgs.pwsh);
  });

  test('hostAliases merges one level deep: a new alias is added to the defaults', () => {
    const cfg = resolveConfig({ hostAliases: { 'mirror.example.com': 'example.com' } });
    assert.equal(cfg.hostAliases['mirror.example.com'], 'example.com');
    assert.equal(cfg.hostAliases['open-data.canada.ca'], 'open.canada.ca');
  });

  test('limits merges one level deep: retuning one cap keeps the others', () => {
    const cfg = resolveConfig({ limits: { exact: 3, 'verb:ls': 4 } });
    const limits = asRecord(cfg.limits);
    assert.equal(limits.exact, 3);
    assert.equal(limits['verb:ls'], 4);
    assert.equal(limits.cmd, asRecord(DEFAULTS.limits).cmd);
    assert.equal(limits.host, asRecord(DEFAULTS.limits).host);
    assert.equal(limits.site, null);
  });

  test('a map key set to undefined keeps the default map', () => {
    const cfg = resolveConfig({ limits: undefined, ignoreArgs: undefined, hostAliases: undefined });
    assert.deepEqual(cfg.limits, DEFAULTS.limits);
    assert.deepEqual(cfg.ignoreArgs, DEFAULTS.ignoreArgs);
    assert.deepEqual(cfg.hostAliases, DEFAULTS.hostAliases);
  });

  test('exclude and include replace the defaults outright', () => {
    const cfg = resolveConfig({ exclude: ['a', 'b'], include: ['c'] });
    assert.deepEqual([...cfg.exclude], ['a', 'b']);
    assert.deepEqual([...cfg.include], ['c']);
  });

  for (const key of ['ignoreArgs', 'hostAliases', 'limits']) {
    for (const bad of [null, [], 'x', 5]) {
      test(`${key}: ${JSON.stringify(bad)} throws naming ${key}`, () => {
        throwsNaming({ [key]: bad }, key);
      });
    }
  }

  for (const key of ['exclude', 'include']) {
    for (const bad of ['todo_write', [1], ['ok', null], { 0: 'a' }, undefined]) {
      test(`${key}: ${bad === undefined ? 'undefined' : JSON.stringify(bad)} throws naming ${key}`, () => {
        throwsNaming({ [key]: bad }, key);
      });
    }
  }

  test('the maps are checked in the order ignoreArgs, hostAliases, limits, before exclude and include', () => {
    throwsNaming({ limits: 5, hostAliases: 5, ignoreArgs: 5, include: 5, exclude: 5 }, 'ignoreArgs');
    throwsNaming({ limits: 5, hostAliases: 5, include: 5, exclude: 5 }, 'hostAliases');
    throwsNaming({ include: 5, exclude: 5, limits: 5 }, 'limits');
    throwsNaming({ include: 5, exclude: 5 }, 'exclude');
  });

  test('merge errors come before validation errors', () => {
    throwsNaming({ window: 1, limits: 5 }, 'limits');
    throwsNaming({ window: 1, include: 'bash' }, 'include');
  });

  test('P11: unknown keys fail the load, in the merge (0.5.2 passed them through)', () => {
    throwsNaming({ someFutureKnob: { deep: 1 } }, 'someFutureKnob');
    assert.throws(() => mergeConfig({ someFutureKnob: { deep: 1 } }), /`someFutureKnob` is not a setting/);
  });

  test('a pathAliases key from an old config is accepted and ignored', () => {
    assert.doesNotThrow(() => resolveConfig({ pathAliases: { '/w': '/workspace' } }));
  });
});

describe('where a refusal is read', () => {
  test("a refusal's stack is its message alone, on a line of its own that starts repeat-tool-breaker: (DSH prints a failed plugin as `<entry>: <stack>`)", () => {
    assert.throws(
      () => resolveConfig({ onlimit: 'deny' }),
      (error: unknown) => {
        assert.ok(error instanceof Error, 'a refusal is an Error');
        assert.equal(error.stack, `\n${error.message}`);
        const printed = `/abs/dist/index.js: ${error.stack ?? ''}`.split('\n');
        assert.equal(printed.length, 2, 'no frames');
        assert.match(printed[1] as string, /^repeat-tool-breaker: `onlimit` is not a setting/);
        return true;
      },
    );
  });
});

describe("the JavaScript 0.6 line's shell-HTTP keys", () => {
  const keys = ['blockShellHttp', 'blockLocalHttp', 'fetchWithCurl', 'shellHttpBlock', 'shellHttpAllow'];
  for (const key of keys) {
    test(`P11: ${key} is refused as the 0.6 JavaScript line's shell-HTTP block, with its value and what to do`, () => {
      const message = throwsNaming({ [key]: true }, `\`${key}\``, 'JavaScript 0.6 line', 'shell-HTTP block', 'got true', 'remove it', 'loop tracks');
      assert.ok(!message.includes('is not a setting'), message);
    });
  }

  test('P11: a 0.6.1 section with several of its keys is refused on the first, before any other check', () => {
    throwsNaming({ window: 1, blockShellHttp: true, shellHttpAllow: ['api.example.com'] }, '`blockShellHttp`');
    throwsNaming({ shellHttpAllow: ['api.example.com'], onlimit: 'deny' }, '`shellHttpAllow`', '["api.example.com"]');
  });

  test('P11: in Chinese the refusal names the key and the line as well', () => {
    assert.throws(
      () => resolveConfigIn({ fetchWithCurl: false }, () => 'zh'),
      (error: unknown) => error instanceof Error && error.message.includes('`fetchWithCurl`') && error.message.includes('JavaScript 0.6') && error.message.includes('循环轨道'),
    );
  });

  test('P11: a near spelling of one of them is still an unknown key, not the 0.6 refusal', () => {
    throwsNaming({ blockshellhttp: true }, '`blockshellhttp` is not a setting');
  });
});

describe('removed keys (§1.5)', () => {
  const removed: Array<[string, string[]]> = [
    ['denyAfter', ['limits.exact']],
    ['warnAfter', ['warnAt', 'limits']],
    ['registerAdvisory', ['warnAt', 'limits']],
    ['maxSamePath', ['exact']],
    ['readTools', []],
    ['matchReadBySubstring', []],
  ];
  for (const [key, replacement] of removed) {
    test(`${key} throws, naming the version that removed it${replacement.length ? ` and ${replacement.join(' / ')}` : ''}`, () => {
      throwsNaming({ [key]: 2 }, key, '0.2.0', ...replacement);
    });
  }

  test('readTools and matchReadBySubstring say that read-like tools are recognised by name', () => {
    assert.match(throwsNaming({ readTools: ['read'] }, 'readTools'), /name/i);
    assert.match(throwsNaming({ matchReadBySubstring: true }, 'matchReadBySubstring'), /name/i);
  });

  test('a removed key fails before any other check, and the first removed key in order wins', () => {
    throwsNaming({ window: 1, limits: 5, denyAfter: 2 }, 'denyAfter');
    const message = throwsNaming({ readTools: [], denyAfter: 2 }, 'readTools');
    assert.ok(!message.includes('denyAfter'), message);
  });

  test('localHosts: ask throws with the migration hint onLimit: ask (removed in 0.4.0)', () => {
    throwsNaming({ localHosts: 'ask' }, 'localHosts', 'onLimit', 'ask', '0.4.0');
  });
});

describe('validation (§1.4)', () => {
  test('window must be an integer of at least 4, and its error says what it is', () => {
    for (const bad of [3, 0, -4, 4.5, '16', NaN, Infinity, null]) throwsNaming({ window: bad }, 'window');
    assert.match(throwsNaming({ window: 3 }), /`window` must be an integer >= 4 \(got 3\); it is how many recent calls per agent are counted$/);
    assert.equal(resolveConfig({ window: 4 }).window, 4);
  });

  test('localHosts must be deny or allow', () => {
    throwsNaming({ localHosts: 'maybe' }, 'localHosts', 'maybe');
    throwsNaming({ localHosts: true }, 'localHosts');
    assert.equal(resolveConfig({ localHosts: 'allow' }).localHosts, 'allow');
  });

  test('onLimit must be ask or deny', () => {
    throwsNaming({ onLimit: 'never' }, 'onLimit', 'never');
    throwsNaming({ onLimit: null }, 'onLimit');
    assert.equal(resolveConfig({ onLimit: 'deny' }).onLimit, 'deny');
  });

  test('includeLocal must be a boolean', () => {
    throwsNaming({ includeLocal: 'yes' }, 'includeLocal', 'yes');
    throwsNaming({ includeLocal: 1 }, 'includeLocal');
    assert.equal(resolveConfig({ includeLocal: true }).includeLocal, true);
  });

  for (const key of ['warnAt', 'summarizeAt', 'failWarnAt'] as const) {
    test(`${key}: 0, a negative number, null or undefined silently disables the stage`, () => {
      for (const off of [0, -1, -7.5, null, undefined]) assert.equal(resolveConfig({ [key]: off })[key], null, String(off));
    });

    test(`${key}: a non-number, NaN, ±Infinity or a positive non-integer throws naming ${key}`, () => {
      throwsNaming({ [key]: 'seven' }, key, 'seven');
      throwsNaming({ [key]: 2.5 }, key, '2.5');
      for (const bad of [NaN, Infinity, -Infinity, true, [3], '3']) throwsNaming({ [key]: bad }, key);
    });

    test(`${key}: a positive integer is kept`, () => {
      assert.equal(resolveConfig({ [key]: 2 })[key], 2);
    });
  }

  test('failLimit must be null or a finite number of at least 2; non-integers are accepted', () => {
    for (const bad of [1, 0, -5, 1.99, 'five', NaN, Infinity, undefined]) throwsNaming({ failLimit: bad }, 'failLimit');
    throwsNaming({ failLimit: 1 }, 'failLimit', '1');
    assert.equal(resolveConfig({ failLimit: null }).failLimit, null);
    assert.equal(resolveConfig({ failLimit: 2.5 }).failLimit, 2.5);
    assert.equal(resolveConfig({ failLimit: 2 }).failLimit, 2);
  });

  for (const key of ['previewChars', 'resultPreviewChars'] as const) {
    test(`${key} must be an integer of at least 1`, () => {
      for (const bad of [0, -1, 1.5, '400', NaN, undefined]) throwsNaming({ [key]: bad }, key);
      throwsNaming({ [key]: 0 }, key, '0');
      assert.equal(resolveConfig({ [key]: 1 })[key], 1);
    });
  }

  test('every limits entry must be null or a finite number of at least 2, user-added keys included', () => {
    throwsNaming({ limits: { exact: 1 } }, 'exact', '1');
    throwsNaming({ limits: { host: 'many' } }, 'host', 'many');
    throwsNaming({ limits: { exact: Infinity } }, 'exact');
    throwsNaming({ limits: { 'verb:ls': 0 } }, 'verb:ls');
    throwsNaming({ limits: { 'host:x.com': undefined } }, 'host:x.com');
    const ok = asRecord(resolveConfig({ limits: { exact: 2.5, site: 2, 'verb:curl': 20, 'cmd:make:make test': null } }).limits);
    assert.equal(ok.exact, 2.5);
    assert.equal(ok.site, 2);
    assert.equal(ok['cmd:make:make test'], null);
    // P11: a key that names no measure is refused whatever its value.
    throwsNaming({ limits: { custom: null } }, 'custom', 'names no measure');
  });

  test('limits entries are checked in insertion order: default keys first, then user-added ones', () => {
    const first = throwsNaming({ limits: { custom: 0, host: 1, exact: 1 } }, 'exact');
    assert.ok(!first.includes('custom'), first);
  });

  test('no setting is checked against another: inverted stages, a cap below a stage and a stage above the window are legal', () => {
    assert.doesNotThrow(() =>
      resolveConfig({ window: 4, warnAt: 20, summarizeAt: 3, failWarnAt: 9, failLimit: 2, limits: { exact: 2, host: 99 } }),
    );
  });

  test('the checks run in the documented order and the first failing one wins', () => {
    const violations: Array<{ key: string; config: Record<string, unknown>; token: string }> = [
      { key: 'window', config: { window: 3.25 }, token: '3.25' },
      { key: 'localHosts', config: { localHosts: 'ask' }, token: 'onLimit' },
      { key: 'localHosts', config: { localHosts: 'maybe-local' }, token: 'maybe-local' },
      { key: 'onLimit', config: { onLimit: 'sometimes' }, token: 'sometimes' },
      { key: 'includeLocal', config: { includeLocal: 'yes-please' }, token: 'yes-please' },
      { key: 'warnAt', config: { warnAt: 'stage-one' }, token: 'stage-one' },
      { key: 'summarizeAt', config: { summarizeAt: 'stage-two' }, token: 'stage-two' },
      { key: 'failWarnAt', config: { failWarnAt: 'fail-stage' }, token: 'fail-stage' },
      { key: 'failLimit', config: { failLimit: 'fail-gate' }, token: 'fail-gate' },
      { key: 'previewChars', config: { previewChars: 'quote-cap' }, token: 'quote-cap' },
      { key: 'resultPreviewChars', config: { resultPreviewChars: 'result-cap' }, token: 'result-cap' },
      { key: 'exact', config: { limits: { exact: 'cap-value' } }, token: 'cap-value' },
    ];
    for (const [i, earlier] of violations.entries()) {
      throwsNaming(earlier.config, earlier.key, earlier.token);
      for (const later of violations.slice(i + 1)) {
        if (later.key === earlier.key) continue;
        const message = throwsNaming({ ...later.config, ...earlier.config }, earlier.key, earlier.token);
        assert.ok(!message.includes(later.token), `${earlier.key} must win over ${later.key}: ${message}`);
      }
    }
  });
});

describe('ignoreArgs entries are checked at load', () => {
  test('an ignoreArgs entry that is not a list of names throws at load, naming the entry and the value', () => {
    for (const bad of ['description', 5, [1], null]) {
      assert.throws(
        () => resolveConfig({ ignoreArgs: { bash: bad } }),
        (error: Error) => error.message.startsWith(PREFIX) && error.message.includes('ignoreArgs.bash') && error.message.includes(JSON.stringify(bad)),
      );
    }
  });

  test('a list of names, even an empty one, is accepted', () => {
    assert.deepEqual([...(resolveConfig({ ignoreArgs: { bash: [] } }).ignoreArgs.bash ?? ['x'])], []);
  });
});

describe('Q7: a key that is present but undefined overrides the default', () => {
  test('warnAt: undefined disables stage 1 end to end', async () => {
    const outcomes = await repeat(newHost({ warnAt: undefined }), {}, on(DEFAULTS.summarizeAt), bash('cat /etc/hosts'));
    assert.deepEqual(noticedAt(outcomes), [on(DEFAULTS.summarizeAt)]);
  });

  test('window: undefined, failLimit: undefined and include: undefined throw', () => {
    throwsNaming({ window: undefined }, 'window');
    throwsNaming({ failLimit: undefined }, 'failLimit');
    throwsNaming({ include: undefined }, 'include');
  });
});

describe('a retuned config takes effect end to end', () => {
  test('a retuned config takes effect end to end: exact: 3 gates the third identical call', async () => {
    const outcomes = await repeat(newHost({ onLimit: 'deny', limits: { exact: 3 } }), {}, 4, { name: 'read', arguments: { path: '/a' } });
    assert.deepEqual(deniedAt(outcomes), [3, 4]);
  });

  test('ignoreArgs: {bash: [workdir]} strips workdir from bash calls and * still strips description', async () => {
    const host = newHost({ onLimit: 'deny', limits: { exact: 2, cmd: 99 } });
    const agent = {};
    await host.call({ agent, name: 'bash', arguments: { command: 'make', workdir: '/a', description: 'one' } });
    const second = await host.call({ agent, name: 'bash', arguments: { command: 'make', workdir: '/b', description: 'two' } });
    assert.equal(second.denied, false, 'workdir is an argument by default');
    const tuned = newHost({ onLimit: 'deny', limits: { exact: 2, cmd: 99 }, ignoreArgs: { bash: ['workdir'] } });
    await tuned.call({ agent, name: 'bash', arguments: { command: 'make', workdir: '/a', description: 'one' } });
    const tunedSecond = await tuned.call({ agent, name: 'bash', arguments: { command: 'make', workdir: '/b', description: 'two' } });
    assert.equal(tunedSecond.denied, true);
  });
});
