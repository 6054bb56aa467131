import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MANY, progressLine } from '../../tools/lib/progress.js';

function stream(isTTY: boolean): { written: string[] } & NodeJS.WriteStream {
  const written: string[] = [];
  return { isTTY, written, write: (chunk: string) => written.push(chunk) > 0 } as unknown as { written: string[] } & NodeJS.WriteStream;
}

describe('the progress line', () => {
  it('shows on a terminal for a run of many files, and is erased at the end', () => {
    const tty = stream(true);
    const onFile = progressLine('replayed', MANY + 1, tty);
    assert.ok(onFile !== undefined, 'a terminal run of many files gets a progress line');
    for (let done = 1; done <= MANY + 1; done += 1) onFile(done, MANY + 1);
    assert.equal(tty.written[0], `\rreplayed 1/${MANY + 1} files`);
    assert.equal(tty.written.at(-1), '\r\u001b[K');
  });

  it('stays silent for a few files, and when stderr is a pipe or a file', () => {
    assert.equal(progressLine('replayed', MANY, stream(true)), undefined);
    assert.equal(progressLine('replayed', 500, stream(false)), undefined);
  });
});
