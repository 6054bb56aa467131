/**
 * Every `assert.ok(…)` and `assert(…)` in the suites carries a message that is
 * there when it fails.
 *
 * Without one, a failing assertion makes Node 20 build its message from the
 * call's source: it reads the file at the position the stack gives. tsx
 * compiles a file onto one line, so that position is line 1 at a column far
 * into the file; Node's reader finds no call there and, once it has read 2,500
 * characters past the column, asks for zero more bytes and tries again, for
 * ever. The test file hangs instead of failing (found at stop 24: a mutant that
 * broke a `sequence.test.ts` assertion ran until Stryker's timeout). A message
 * that may be `undefined` (`outcome.denyReason`) counts as none.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Where a message can be missing: absent, or of a type that admits nothing. */
const SILENT = ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void | ts.TypeFlags.Any | ts.TypeFlags.Unknown;

function maySilence(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((part) => (part.flags & SILENT) !== 0);
}

/** `file:line` of each `assert.ok`/`assert` call in `files` whose message may be missing. */
function unexplained(program: ts.Program, files: readonly string[]): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    assert.ok(source !== undefined, `${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ['assert.ok', 'assert'].includes(node.expression.getText(source))) {
        const message = node.arguments[1];
        if (message === undefined || maySilence(checker.getTypeAtLocation(message))) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          found.push(`${file.slice(root.length)}:${line}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('every assert.ok in the suites carries a message that is there when it fails, so a failing one fails instead of hanging', () => {
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  assert.ok(config !== undefined, 'tsconfig.json reads');
  const files = config.fileNames.filter((file) => file.startsWith(`${root}test/`));
  assert.ok(files.length > 100, `only ${files.length} files found under test/`);
  assert.deepEqual(unexplained(ts.createProgram(files, config.options), files), []);
});

test('the check finds a call without a message or with one that may be undefined, on its line', () => {
  const file = `${root}test/probe.ts`;
  const text = [
    'declare const assert: { (v: unknown, m?: string): void; ok(v: unknown, m?: string): void };',
    'declare const maybe: string | undefined;',
    'assert.ok(1);',
    'assert(2);',
    "assert.ok(3, 'why');",
    'assert.ok(4, maybe);',
    "assert.ok(5, maybe ?? 'none');",
    'if (maybe) {',
    '  assert.ok(',
    '    6,',
    '  );',
    '}',
  ].join('\n');
  const host = ts.createCompilerHost({ noEmit: true });
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => (name === file ? ts.createSourceFile(name, text, version, true) : read(name, version, ...rest));
  const program = ts.createProgram([file], { noEmit: true, strict: true, types: [] }, host);
  assert.deepEqual(unexplained(program, [file]), ['test/probe.ts:3', 'test/probe.ts:4', 'test/probe.ts:6', 'test/probe.ts:9']);
});
