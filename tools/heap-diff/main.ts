/**
 * What a heap holds more of than another, by constructor: reads two V8 heap
 * snapshots (`node:v8` writeHeapSnapshot, or the memory probe's
 * `HEAP_SNAPSHOTS=<dir>`) and prints the groups (node type and constructor
 * or string kind) whose count or self size grew, largest growth first.
 *
 *   node --import tsx tools/heap-diff/main.ts before.heapsnapshot after.heapsnapshot [rows]
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

/** Strings are grouped by kind (a name would make each its own group). */
const BY_KIND = new Set(['string', 'concatenated string', 'sliced string', 'number', 'code', 'hidden']);

function groups(path: string): Map<string, Group> {
  const heap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [type, name, size] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [number, number, number];
  const out = new Map<string, Group>();
  for (let at = 0; at < heap.nodes.length; at += width) {
    const kind = types[heap.nodes[at + type] as number] ?? '?';
    const label = BY_KIND.has(kind) ? kind : `${kind} ${heap.strings[heap.nodes[at + name] as number] ?? '?'}`;
    const group = out.get(label) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += heap.nodes[at + size] as number;
    out.set(label, group);
  }
  return out;
}

const [beforePath, afterPath, rowsText] = process.argv.slice(2);
if (beforePath === undefined || afterPath === undefined) {
  process.stderr.write('usage: heap-diff <before.heapsnapshot> <after.heapsnapshot> [rows]\n');
  process.exit(2);
}
const before = groups(beforePath);
const after = groups(afterPath);
const rows = [...after].map(([label, group]) => {
  const was = before.get(label) ?? { count: 0, bytes: 0 };
  return { label, count: group.count - was.count, bytes: group.bytes - was.bytes };
});
rows.sort((a, b) => b.bytes - a.bytes);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
process.stdout.write(`total self size grown: ${(total / 1024).toFixed(1)} KB\n`);
for (const row of rows.slice(0, Number(rowsText ?? 30))) {
  if (row.bytes === 0 && row.count === 0) continue;
  process.stdout.write(`${String(row.bytes).padStart(10)} B ${String(row.count).padStart(7)}  ${row.label.slice(0, 100)}\n`);
}
