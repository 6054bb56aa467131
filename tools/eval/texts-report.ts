/**
 * The texts and the stop, one row per system: the words of its asks (issue
 * 39), the characters of its own text the model reads per gated loop, the
 * calls it refuses per gated loop, and the runs it stopped (issue 41); per
 * session, the gated loops and the stopped runs of this plugin.
 */
import type { Cell, Column } from '../lib/table.js';
import type { SystemRun } from './evaluate.js';
import { at, render, spreadText } from './report.js';

/** What the texts-and-stop table's short titles mean, printed under it. */
export const TEXTS_LEGEND =
  'ask words: the reason of each ask of the same configuration with onLimit: ask (nobody answering),\n' +
  'in whitespace-separated words as the approval panel shows it, median/max over the asks.\n' +
  'per gated loop, median/max over the loops gated: model chars, the characters of the system\'s own\n' +
  "text the model reads in the run (each denial, each notice, what it adds to a refused call's result);\n" +
  'refused, the calls denied from the first gate to the end of the run or its stop (a peer that halts\n' +
  'denies every later call: counted alike).\n' +
  'runs stopped: runs whose turn the system ended by rejecting a step, the run handed back, by label;\n' +
  'resolved: loop runs stopped that resolved their task later anyway (the operator pays a "continue").';

const COLUMNS: readonly Column[] = [
  { group: 'ask', title: 'words', right: true },
  { group: 'per gated loop', title: 'model chars', right: true },
  { group: 'per gated loop', title: 'refused', right: true },
  { group: 'runs stopped', title: 'loop', right: true },
  { group: 'runs stopped', title: 'good', right: true },
  { group: 'runs stopped', title: 'progress', right: true },
  { group: 'runs stopped', title: 'resolved', right: true },
];

export function textsTable(runs: readonly SystemRun[], markdown = false): string {
  const rows = runs.map((run): Cell[] => {
    const figures = run.figures;
    return [
      run.system,
      figures.asks === undefined ? '—' : spreadText(figures.askWords),
      run.gates ? spreadText(figures.modelCharsPerGatedLoop) : '—',
      run.gates ? spreadText(figures.refusedPerGatedLoop) : '—',
      `${figures.loopsStopped}/${figures.loops}`,
      `${figures.goodStopped}/${figures.good}`,
      `${figures.progressStopped}/${figures.progress}`,
      figures.stoppedResolved,
    ];
  });
  return render([{ title: 'system' }, ...COLUMNS], rows, markdown);
}

/** Per session of one system: the loops it gated and the runs it stopped, with what each cost in text and refusals. */
export function stopsTable(run: SystemRun, markdown = false): string {
  const columns: Column[] = [
    { title: 'session' },
    { title: 'class' },
    { title: 'gate', right: true },
    { title: 'refused', right: true },
    { title: 'model chars', right: true },
    { title: 'stopped at', right: true },
    { title: 'resolved later' },
  ];
  const shown = run.sessions.filter((session) => session.stoppedAt !== undefined || (session.class === 'loop' && session.firstDenial !== undefined));
  const rows = shown.map((session): Cell[] => [
    session.session,
    session.class ?? '—',
    at(session.firstDenial, session),
    session.refused,
    session.modelChars,
    at(session.stoppedAt, session),
    session.stoppedAt === undefined ? '' : session.resolved === true ? 'yes' : session.resolved === false ? 'no' : '?',
  ]);
  return render(columns, rows, markdown);
}
