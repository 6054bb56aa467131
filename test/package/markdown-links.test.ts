/**
 * No broken links in the repository's Markdown (test/support/markdown-links.ts):
 * every relative link reaches a file, and every `#anchor` a heading of the page
 * it names, as GitHub slugs headings. Web addresses are not fetched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { anchorsOf, brokenLinks, githubSlug, linksOf, markdownFiles } from '../support/markdown-links.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A scratch tree of Markdown files, checked as the repository is. */
function tree(files: Record<string, string>): { root: string; problems: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'rtb-links-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const problems = brokenLinks(root, Object.keys(files).filter((path) => path.endsWith('.md')));
  rmSync(root, { recursive: true, force: true });
  return { root, problems };
}

describe('the repository\'s Markdown links', () => {
  test('every relative link of every Markdown file reaches its file, and every anchor a heading', () => {
    const files = markdownFiles(ROOT);
    for (const expected of ['README.md', 'README.zh.md', 'CHANGELOG.md', 'docs/deviations.md', 'client/locales/glossary.md']) {
      assert.ok(files.includes(expected), `${expected} is among the files checked`);
    }
    assert.ok(!files.some((path) => path.includes('node_modules/') || path.startsWith('test/host/.work/')), 'installed and scratch files are not');
    const problems = brokenLinks(ROOT, files);
    assert.deepEqual(problems, [], `${problems.length} broken links:\n${problems.join('\n')}`);
  });
});

describe('the link check', () => {
  test('a link to a file that is not there is reported with its file and line', () => {
    const { problems } = tree({ 'a.md': '# A\n\nSee [b](docs/b.md).\n' });
    assert.deepEqual(problems, ['a.md:3: docs/b.md: no such file (docs/b.md)']);
  });

  test('an anchor must be a heading of the page it points into, this one or another', () => {
    const { problems } = tree({
      'a.md': '# A\n\n## Quick start\n\n[here](#quick-start), [gone](#quick-starts), [there](docs/b.md#p15-bounded), [not](docs/b.md#p16)\n',
      'docs/b.md': '# B\n\n## P15: bounded\n',
    });
    assert.deepEqual(problems, ['a.md:5: #quick-starts: a.md has no heading with the anchor #quick-starts', 'a.md:5: docs/b.md#p16: docs/b.md has no heading with the anchor #p16']);
  });

  test('a repeated heading is reached with -1, an explicit <a id> too; a directory, an image and a code file with a line anchor land', () => {
    const { problems } = tree({
      'a.md': '# A\n\n## Tests\n\n## Tests\n\n<a id="kept"></a>\n\n[1](#tests-1) [2](#kept) [d](docs/) [i](docs/p.png) [c](src/x.ts#L3) [r]\n\n[r]: docs/b.md#b\n',
      'docs/b.md': '# B\n',
      'docs/p.png': 'png',
      'src/x.ts': 'x',
    });
    assert.deepEqual(problems, []);
  });

  test('links in code and web addresses are not checked; a link out of the repository is refused', () => {
    const { problems } = tree({
      'a.md': '# A\n\n```md\n[x](nowhere.md)\n```\n\n`[y](nowhere.md)` [w](https://example.invalid/x#y) [m](mailto:a@b.invalid) [o](../outside.md)\n',
    });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^a\.md:7: \.\.\/outside\.md: /);
  });

  test('GitHub\'s slugs: markup and punctuation dropped, case folded, spaces hyphenated, Chinese kept', () => {
    assert.equal(githubSlug('Beyond the P-decisions: smaller decisions this port takes'), 'beyond-the-p-decisions-smaller-decisions-this-port-takes');
    assert.equal(githubSlug('Through the minimal preset\'s tools (--tools minimal)'), 'through-the-minimal-presets-tools---tools-minimal');
    assert.equal(githubSlug('Configure from the web UI (Settings → Plugins)'), 'configure-from-the-web-ui-settings--plugins');
    assert.equal(githubSlug('快速上手：三步'), '快速上手三步');
    assert.equal(githubSlug('See [the docs](docs/a.md)'), 'see-the-docs');
    assert.deepEqual([...anchorsOf('# `act:` measure\n```\n# not a heading\n```\n')], ['act-measure']);
  });

  test('the forms of a link: inline, titled, in angle brackets, an image, a definition, HTML', () => {
    const text = '[a](x.md) [b](y.md "t") [c](<z w.md>) ![d](p.png)\n[e]: q.md\n<img src="r.png"> <a href="s.md">s</a>\n';
    assert.deepEqual(linksOf(text).map((link) => link.target), ['x.md', 'y.md', 'z w.md', 'p.png', 'q.md', 'r.png', 's.md']);
  });
});
