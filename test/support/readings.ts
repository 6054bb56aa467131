/**
 * The back-to-back run's readings in the unit suite: lines a reading must
 * take as one.
 */
import assert from 'node:assert/strict';

/** Every line reads as the first does under `read`, and the first reads as something. */
export function sameReading(lines: readonly string[], read: (line: string) => string | null): void {
  const first = read(lines[0] as string);
  assert.notEqual(first, null, lines[0]);
  for (const line of lines) assert.equal(read(line), first, line);
}
