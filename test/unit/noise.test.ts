/**
 * The noise in a result line (result/noise.ts), rule by rule, each pinned by
 * the exact line it leaves: what a mask takes, and just as much what it must
 * not take, since every digit it takes wrongly makes two different answers
 * read as one (a good run's rerun read as a repeat).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maskShellLine, NOISE_LINE_LIMIT, quietLine } from '../../src/lib/result/noise.js';

type Cases = readonly (readonly [string, string | null])[];

/** Each line and what `read` leaves of it. */
function reads(read: (line: string) => string | null, cases: Cases): void {
  for (const [line, left] of cases) assert.equal(read(line), left, JSON.stringify(line));
}

const leaves = (cases: Cases): void => reads(quietLine, cases);
const masks = (cases: Cases): void => reads(maskShellLine, cases);

describe('quietLine: what a terminal last showed', () => {
  test('only what follows the last carriage return is read; a trailing one shows what came before it', () => {
    leaves([
      ['50%\r100% 3 files', '100% 3 files'],
      ['done 3\r', 'done 3'],
      ['done 3\r\r', 'done 3'],
      ['3\r', '3'],
      ['\r', ''],
    ]);
  });

  test('a line without a digit or a spinner glyph is read as it is, whatever it holds', () => {
    leaves([
      ['the eta: soon, see /tmp/tmpabc', 'the eta: soon, see /tmp/tmpabc'],
      ['  % Total    % Received % Xferd  Average Speed', '  % Total    % Received % Xferd  Average Speed'],
    ]);
  });

  test('a line longer than the limit is data, read as it is; one of the limit is read for noise', () => {
    const at = (length: number): string => `${'x'.repeat(length - ' took 0.53s'.length)} took 0.53s`;
    assert.equal(quietLine(at(NOISE_LINE_LIMIT + 1)), at(NOISE_LINE_LIMIT + 1));
    assert.equal(quietLine(at(NOISE_LINE_LIMIT)), `${'x'.repeat(NOISE_LINE_LIMIT - ' took 0.53s'.length)} took #s`);
  });

  test('spinner glyphs are dropped, wherever they stand', () => {
    leaves([
      ['\u280b building 3 targets \u2819', ' building 3 targets '],
      ['\u28ff', ''],
    ]);
  });
});

describe("quietLine: curl's meter", () => {
  test('a row of the meter is dropped whole, whatever its speeds and clocks', () => {
    leaves([
      ['100 12.3M  100 12.3M    0     0  4213k      0  0:00:02  0:00:02 --:--:-- 4213k', null],
      ['  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0', null],
      [' 45 1024k   45  461k    0     0  1.2M      0  0:00:01 --:--:--  0:00:01  1.2M ', null],
      ['100 12.3M  100   512  100 12.3M  1024k  3380k  0:00:02  0:00:02 --:--:-- 4004k', null],
    ]);
  });

  test('a line with the numbers but not the shape of a row is no row', () => {
    leaves([
      ['100 12.3M  100 12.3M    0     0  4213k      0  0:00:02  0:00:02 --:--:-- 4213k saved', '100 12.3M  100 12.3M    0     0  4213k      0  #:#  #:# --:--:-- 4213k saved'],
      ['1000 12.3M  100 12.3M    0     0  4213k      0  0:00:02  0:00:02 --:--:-- 4213k', '1000 12.3M  100 12.3M    0     0  4213k      0  #:#  #:# --:--:-- 4213k'],
    ]);
  });
});

describe('quietLine: a progress line keeps only its words', () => {
  test('a rate in any unit marks a progress line', () => {
    leaves([
      [' 45%|████▌     | 450/1000 [00:05<00:06, 88.1it/s]', 'it s'],
      ['Downloading torch (2.1 GB) 1.2 MB/s', 'Downloading torch GB MB s'],
      ['got 5 KiB/s', 'got KiB s'],
      ['got 5 Gi B/s', 'got 5 Gi B/s'],
      ['got 5bytes/s', 'got bytes s'],
      ['got 5 b/s', 'got b s'],
      ['step 3 4.50its/s', 'step its s'],
      ['got 5 TB/s', 'got TB s'],
      ['got 5 kB/s', 'got kB s'],
    ]);
  });

  test('a rate must end its word: /sec or /step is no rate', () => {
    leaves([
      ['copied 5 MB/sec', 'copied 5 MB/sec'],
      ['read 5 B/step', 'read 5 B/step'],
      ['got 5 zB/s', 'got 5 zB/s'],
      ['got B/s 5', 'got B/s 5'],
    ]);
  });

  test('eta or ETA as a word marks a progress line; inside a word it does not', () => {
    leaves([
      ['pulling 3 layers, eta 12', 'pulling layers eta'],
      ['pulling 3 layers ETA 12', 'pulling layers ETA'],
      ['beta 2 released', 'beta 2 released'],
      ['etag 2 kept', 'etag 2 kept'],
      ['BETA 2', 'BETA 2'],
    ]);
  });
});

describe('quietLine: what a run names anew', () => {
  test('a memory address of six hex digits or more is masked; a shorter or embedded one is news', () => {
    leaves([
      ['<Foo object at 0x7f3a1b2c>', '<Foo object at 0x#>'],
      ['id 0xABCDEF', 'id 0x#'],
      ['flags 0x12345', 'flags 0x12345'],
      ['key a0x123456', 'key a0x123456'],
      ['word 0x1234567g', 'word 0x1234567g'],
    ]);
  });

  test('a UUID is masked whole', () => {
    leaves([
      ['run 123e4567-e89b-12d3-a456-426614174000 done', 'run # done'],
      ['run 123e4567-e89b-12d3-a456-42661417400 done', 'run 123e4567-e89b-12d3-a456-42661417400 done'],
    ]);
  });

  test('a temporary name keeps its prefix; one past 16 characters, or inside a word, is news', () => {
    leaves([
      ['open /tmp/tmpk2j9x_1/a.py', 'open /tmp/tmp#/a.py'],
      ['in pytest-12/test_a0', 'in pytest-#/test_a0'],
      ['in /tmp/tmp1234567890abcdefg', 'in /tmp/tmp1234567890abcdefg'],
      ['in /tmp/tmp1234567890abcdef', 'in /tmp/tmp#'],
      ['in xtmp123', 'in xtmp123'],
    ]);
  });
});

describe('quietLine: dates, clocks and durations', () => {
  test('an ISO date is masked with its time, seconds, fraction and zone', () => {
    leaves([
      ['2024-05-01 started', '# started'],
      ['at 2024-05-01T12:03:44Z up', 'at # up'],
      ['at 2024-05-01T12:03:44.123+02:00 up', 'at # up'],
      ['at 2024-05-01T12:03:44,5-0700 up', 'at # up'],
      ['at 2024-05-01 12:03 up', 'at # up'],
    ]);
  });

  test('a date must stand as its own word', () => {
    leaves([
      ['id 12024-05-01', 'id 12024-05-01'],
      ['id 2024-05-011', 'id 2024-05-011'],
      ['id 2024-5-01', 'id 2024-5-01'],
    ]);
  });

  test('a clock is masked; a position in a file, or digits glued to it, are news', () => {
    leaves([
      ['at 12:03 ok', 'at #:# ok'],
      ['at 9:03:44 ok', 'at #:# ok'],
      ['at 0:00:05.12 ok', 'at #:# ok'],
      ['at 0:00:05,12 ok', 'at #:# ok'],
      ['src/app.ts:12:34: error', 'src/app.ts:12:34: error'],
      ['id 123:45', 'id 123:45'],
      ['id 12:345', 'id 12:345'],
      ['id 12:3', 'id 12:3'],
      ['see a/1:23', 'see a/1:23'],
      ['see a-1:23', 'see a-1:23'],
      ['see a.1:23', 'see a.1:23'],
      ['see x1:23', 'see x1:23'],
      ['ratio 12:34:', 'ratio 12:34:'],
      ['ratio 12:34x', 'ratio 12:34x'],
    ]);
  });

  test('a duration is masked in every unit, hours and minutes before it', () => {
    leaves([
      ['5 passed in 0.53s', '5 passed in #s'],
      ['took 120 ms', 'took #s'],
      ['took 1m2.3s', 'took #s'],
      ['took 1h2m3s', 'took #s'],
      ['took 12m3s', 'took #s'],
      ['took 12h3s', 'took #s'],
      ['took 2h5s', 'took #s'],
      ['took 3 seconds', 'took #s'],
      ['took 1 second', 'took #s'],
      ['took 4 sec and 4 secs', 'took #s and #s'],
      ['took 3 min, 3 mins, 3 minute, 3 minutes', 'took #s, #s, #s, #s'],
      ['took 5us 5µs 7ns', 'took #s #s #s'],
    ]);
  });

  test('a number before a word that only starts like a unit is news', () => {
    leaves([
      ['5 sessions', '5 sessions'],
      ['v2s', 'v2s'],
      ['3 mb', '3 mb'],
      ['2 hosts', '2 hosts'],
    ]);
  });
});

describe('maskShellLine: the counter of a long-lived shell', () => {
  test("a shell's `: line N:` is masked, by name or path", () => {
    masks([
      ['sh: line 3: y', 'sh: line #: y'],
      ['/usr/local/bin/bash: line 120: z', '/usr/local/bin/bash: line #: z'],
    ]);
  });

  test('a path up to 48 characters is a shell; a longer one, or one with a space, tab or colon, is not', () => {
    const path = (length: number): string => `/${'x'.repeat(length - 5)}bash`;
    masks([
      [`${path(48)}: line 3: y`, `${path(48)}: line #: y`],
      [`${path(49)}: line 3: y`, `${path(49)}: line 3: y`],
      ['my bash: line 3: y', 'my bash: line 3: y'],
      ['my\tbash: line 3: y', 'my\tbash: line 3: y'],
      ['a:bash: line 3: y', 'a:bash: line 3: y'],
    ]);
  });

  test('the name must end in sh, be two characters at least, and the counter be digits and a colon', () => {
    masks([
      ['h: line 3: y', 'h: line 3: y'],
      ['zsh: line 3: y', 'zsh: line #: y'],
      ['bah: line 3: y', 'bah: line 3: y'],
      ['bas: line 3: y', 'bas: line 3: y'],
      ['psx: line 3: y', 'psx: line 3: y'],
      [': line 3: y', ': line 3: y'],
      ['bash: line 3 y', 'bash: line 3 y'],
      ['bash: line : y', 'bash: line : y'],
      ['bash: line 12', 'bash: line 12'],
    ]);
  });
});
