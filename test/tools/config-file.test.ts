import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfigFile } from '../../tools/lib/config-file.js';
import { resolveConfig } from '../../src/lib/config/config.js';
import { REPO, tempDir } from './support.js';

describe('--config files', () => {
  it('reads the YAML a plugin config is written in: maps, lists, quoted keys, null, comments', () => {
    const source = [
      '# tuned for a crawler',
      'window: 16',
      'onLimit: deny   # never ask',
      'warnAt: 5',
      'summarizeAt: ~',
      'exclude: [todo_write, "web_*"]',
      'include:',
      '  - bash',
      '  - read',
      'limits:',
      "  'verb:curl': 20",
      '  host: null',
      'hostAliases: {}',
    ].join('\n');
    const path = join(tempDir(), 'tuned.yml');
    writeFileSync(path, source);
    assert.deepEqual(loadConfigFile(path), {
      window: 16,
      onLimit: 'deny',
      warnAt: 5,
      summarizeAt: null,
      exclude: ['todo_write', 'web_*'],
      include: ['bash', 'read'],
      limits: { 'verb:curl': 20, host: null },
      hostAliases: {},
    });
  });

  it('takes the repeat-tool-breaker row out of a DSH patch overlay', () => {
    const path = join(tempDir(), 'overlay.yml');
    writeFileSync(
      path,
      [
        '- id: some-other-row',
        '  config:',
        '    x: 1',
        '- id: repeat-tool-breaker',
        '  config:',
        '    warnAt: 5',
        '    limits:',
        '      exact: 9',
      ].join('\n'),
    );
    assert.deepEqual(loadConfigFile(path), { warnAt: 5, limits: { exact: 9 } });
  });

  it('reads the commented default block of cordis.patch.yml, and a row inside `- insert:`', () => {
    const block = readFileSync(join(REPO, 'cordis.patch.yml'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#    ') || line.startsWith('#   - id:'))
      .map((line) => line.slice(1))
      .join('\n');
    const path = join(tempDir(), 'defaults.yml');
    writeFileSync(path, block);
    assert.deepEqual(resolveConfig(loadConfigFile(path)), resolveConfig({}));
    const inserted = join(tempDir(), 'insert.yml');
    writeFileSync(
      inserted,
      ['- insert:', '    - id: repeat-tool-breaker', '      name: /abs/dist/index.js', '      config: { onLimit: deny }'].join('\n'),
    );
    assert.deepEqual(loadConfigFile(inserted), { onLimit: 'deny' });
  });

  it('reads JSON too', () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, JSON.stringify({ failLimit: null }));
    assert.deepEqual(loadConfigFile(path), { failLimit: null });
  });

  it('reads full YAML, anchors included, as DSH itself would', () => {
    const path = join(tempDir(), 'anchors.yml');
    writeFileSync(path, 'limits: &caps\n  exact: 9\n');
    assert.deepEqual(loadConfigFile(path), { limits: { exact: 9 } });
  });

  it('fails naming the file and the line for malformed YAML', () => {
    const path = join(tempDir(), 'broken.yml');
    writeFileSync(path, 'limits:\n  exact: [9\n');
    assert.throws(() => loadConfigFile(path), /broken\.yml: .*at line \d+, column \d+/);
  });

  it('fails naming the file and the plugin error for a config the plugin would refuse', () => {
    const path = join(tempDir(), 'bad.yml');
    writeFileSync(path, 'window: 2\n');
    assert.throws(() => loadConfigFile(path), /bad\.yml: repeat-tool-breaker: `window` must be an integer >= 4/);
  });
});
