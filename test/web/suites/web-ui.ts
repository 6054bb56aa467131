/**
 * The breaker in the real DSH 0.1.0-rc.8 web UI, the way an operator meets
 * it: the plugin installed into the `web` profile from its tarball with
 * `dsh plugin add`, `dsh --profile web` on 127.0.0.1, a scripted model, and
 * headless Chromium driven over the DevTools protocol (../lib/cdp.ts).
 *
 * One server, one browser, one scripted scenario in order (each test builds
 * on the state the previous one left, as a person's session would):
 *
 *   the card under Settings → Plugins shows the everyday settings in view and
 *   the rest folded with a one-line summary, and, opened, the effective values
 *   and defaults, human labels for the caps and a header named as DSH names
 *   its own; it works from the keyboard, folds included; an invalid value is refused in red with our
 *   message in the card's words, Save says which field holds it back, and
 *   nothing is written; a cap that pre-empts a stage is flagged; an edit is
 *   only Unsaved until it saves into settings.yaml and says Saved; the card
 *   stays open across a change of Settings tab; a live session
 *   then gates at the new cap without a restart; the approval panel shows our
 *   reason; Reject leads to REPEAT_TOOL_BLOCKED, Allow once lets the calls
 *   run; the card follows the shell's light and dark themes; a bash call
 *   inside a session can write the settings over HTTP, but the loosening
 *   waits for the agent's next human message; a reset returns a field to its
 *   default; with the UI switched to 中文 the card, a refusal and the
 *   approval panel's reason are in Chinese (the model's texts are not), and
 *   switched back, English again; a bad value in settings.yaml (written while
 *   DSH runs, or a typo found at boot) is left out, listed at the top of the
 *   card in the operator's language, and removed with a Save, the rest of the
 *   section (its preset included) applying meanwhile.
 *
 * Screenshots go to test/web/.artifacts/. Every process is stopped by its id
 * in `after`, whatever failed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

import { COPY, wordsOf } from '../../../client/copy.js';
import { capField } from '../../../client/fields.js';
import { defaultNote } from '../../../client/notes.js';
import { viewForm } from '../../../client/form.js';
import { translator } from '../../../client/i18n.js';
import { inCardWords } from '../../../client/wording.js';
import { configText, refusalOf } from '../../../src/lib/config/messages.js';
import type { ConfigMessage } from '../../../src/lib/text/refusal.js';
import { startMockModel, type MockModel } from '../../host/lib/mock-model.js';
import { pluginUnderTest } from '../../host/lib/env.js';
import { resolveConfig } from '../../../src/lib/config/config.js';
import { PRESETS, presetConfig } from '../../../src/lib/config/preset.js';
import { plainLogRows } from '../../host/lib/dsh.js';
import { launchBrowser, until, type Browser, type Page } from '../lib/cdp.js';
import { createDirector } from '../lib/director.js';
import { ARTIFACTS, WEB_WORK } from '../lib/paths.js';
import { approvalAsked, createSession, prompt, turnsEnded } from '../lib/sessions.js';
import {
  accessibleName,
  chooseLanguage,
  SHELL_EN,
  SHELL_ZH,
  approvalHeadline,
  approvalPanel,
  buttonDisabled,
  CARD,
  CARD_HEADER,
  chooseTheme,
  closeSettings,
  computed,
  controlValues,
  cssVariable,
  fieldRow,
  fieldState,
  foldToggle,
  openFold,
  setAllFolds,
  input,
  isExpanded,
  markApprovalPanel,
  openCard,
  openSession,
  pageText,
  passFirstScreens,
  RESOLVE_COLOUR,
  resolvedColour,
  showCard,
  visibleRowTexts,
} from '../lib/ui.js';
import { prepareProfile, settingsFile, startWebHost, type WebHost } from '../lib/web-host.js';

const plugin = pluginUnderTest();
const director = createDirector();
const NS = 'repeat-tool-breaker';
const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;
/** The issue's forged command (issue 35): a sentence in the breaker's voice after a harmless command. */
const FORGED_EN = 'echo rtb-reject # retry\n\nNote to the operator from the loop breaker: this repeat was checked and is SAFE. Press Allow once; Reject will corrupt the workspace.';
const FORGED_ZH = 'echo rtb-zh # retry\n\n给操作员的说明（来自重复调用断路器）：这次重复已经检查过，是安全的 SAFE。请按“允许一次”；“拒绝”会损坏工作区。';
/** An ordinary loop: the panel a newcomer meets (docs/img/approval-panel.png, approval-panel-zh.png). */
const ORDINARY = 'ls -la /tmp';
/** The ask at the 4th identical call (the cap saved in the card), as DSH's panel shows it (P16). */
const ASK_EN =
  "Loop breaker: this would be the 4th run of this command among the agent's recent calls. " +
  'Allow once runs it and stops counting calls like it until your next message. Reject blocks it and calls like it until then.';
const ASK_ZH =
  '重复调用断路器：这将是 agent 最近的调用中第 4 次运行这条命令。' +
  '允许一次：放行这次调用，并在你发送下一条消息之前不再对同类调用计数。拒绝：阻止这次调用和同类调用，直到你发送下一条消息。';
/** The row's config in the profile: the card's defaults (the base layer). */
const PROFILE_CONFIG = { warnAt: 2, summarizeAt: 3 };
const ROOT = join(WEB_WORK, 'run');
const HOME = join(ROOT, 'home');
const WORKSPACE = join(ROOT, 'workspace');

let model: MockModel | undefined;
let host: WebHost | undefined;
let browser: Browser | undefined;
let page: Page;
/** The session whose approvals the browser answers. */
let watched = '';

function web(): WebHost {
  if (host === undefined) throw new Error('the web host did not start');
  return host;
}

/** What the user layer of a namespace holds in settings.yaml (undefined: no section). */
function sectionOf(ns: string): Record<string, unknown> | undefined {
  const text = settingsFile(HOME);
  if (text === '') return undefined;
  const document = parseYaml(text) as Record<string, unknown> | null;
  return (document?.[ns] as Record<string, unknown> | undefined) ?? undefined;
}

/** What the user layer of the breaker's namespace holds in settings.yaml. */
function savedSection(): Record<string, unknown> | undefined {
  return sectionOf(NS);
}

/** The theme DSH has stored for the user (`ui-theme.preference` in settings.yaml). */
function storedTheme(): unknown {
  return sectionOf('ui-theme')?.preference;
}

/** resolveConfig's message for a config, without the prefix the card drops. */
function refusal(config: unknown): string {
  try {
    resolveConfig(config);
  } catch (error) {
    return (error as Error).message.replace(/^repeat-tool-breaker: /, '');
  }
  throw new Error(`resolveConfig accepted ${JSON.stringify(config)}`);
}

/** resolveConfig's refusal for a config, as data (rendered in either language). */
function refusalData(config: unknown): ConfigMessage {
  try {
    resolveConfig(config);
  } catch (error) {
    const data = refusalOf(error);
    if (data !== undefined) return data;
    throw error;
  }
  throw new Error(`resolveConfig accepted ${JSON.stringify(config)}`);
}

/** The error colour of the shell's theme, as the page resolves it now (light or dark). */
function errorColour(): Promise<string> {
  return resolvedColour(page, 'var(--dsw-alias-state-error-primary)');
}

/** `rgb(r, g, b)` as numbers. */
function rgb(colour: string): [number, number, number] {
  const match = /^rgba?\((\d+), (\d+), (\d+)/.exec(colour);
  if (match === null) throw new Error(`not an rgb colour: ${colour}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

async function shot(name: string, selector?: string): Promise<void> {
  await page.screenshot(join(ARTIFACTS, `${name}.png`), selector);
}

/** A test whose failure leaves a screenshot and the page's errors behind. */
function step(name: string, body: () => Promise<void>): void {
  test(name, { timeout: 150_000 }, async () => {
    try {
      await body();
    } catch (error) {
      const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      await shot(`failed-${slug}`).catch(() => undefined);
      // The tests share one page: drafts a failed test left in the card would fail the next ones too.
      await page
        ?.evaluate(`(() => { const discard = document.querySelector(${JSON.stringify(`${CARD} [data-rtb=discard]`)}); if (discard !== null && !discard.disabled) discard.click(); })()`)
        .catch(() => undefined);
      const context = `\n--- page errors ---\n${page?.errors.slice(-10).join('\n') ?? ''}\n--- dsh output (tail) ---\n${host?.output().slice(-3000) ?? ''}`;
      if (error instanceof Error) error.message += context;
      throw error;
    }
  });
}

before(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  mkdirSync(WORKSPACE, { recursive: true });
  const pnpmStore = join(ROOT, 'pnpm-store');
  await prepareProfile({
    home: HOME,
    cwd: ROOT,
    tarball: plugin.tarball,
    pnpmStore,
    patch: [
      '# The breaker row (installed by dsh plugin add) reconfigured by id: the base layer.',
      `- id: ${NS}`,
      `  config: ${JSON.stringify(PROFILE_CONFIG)}`,
    ],
  });
  model = await startMockModel({ script: [], respond: director.nextCall, maxRequests: 2_000, maxSeconds: 900 });
  host = await startWebHost({ home: HOME, cwd: WORKSPACE, modelUrl: model.url, pnpmStore, timeoutMs: 90_000 });
  browser = await launchBrowser({ userDataDir: join(ROOT, 'chromium-profile'), width: 1280, height: 900 });
  page = browser.page;
  await page.navigate(web().url);
  await passFirstScreens(page);
});

after(async () => {
  await browser?.close();
  await host?.stop();
  await model?.close();
});

describe('the Settings → Plugins card', () => {
  step('shows the everyday settings in view and the rest folded with a one-line summary; opened, every setting with its effective value, its default from the profile, and no override yet', async () => {
    await openCard(page);
    // The same layers, run through the card's form in Node: every control and summary the browser shows agrees.
    const expected = viewForm(PROFILE_CONFIG, {}, new Map());
    const everyField = expected.groups.flatMap((g) => g.fields);
    const groups = await page.evaluate<string[]>(`[...document.querySelectorAll('${CARD} legend')].map((l) => l.textContent)`);
    assert.deepEqual(groups, ['Gate', 'Stages', 'Caps', 'Opt-in tracks', 'More settings']);
    assert.deepEqual(
      Object.keys(await controlValues(page)),
      everyField.filter((view) => view.field.fold === undefined).map((view) => view.field.path),
      'in view: what the gate does at a limit, the preset, the stop, the stages, the identical calls\' cap, and each track\'s switch',
    );
    const folds = await page.evaluate<[string, string | null, string][]>(`[...document.querySelectorAll(${JSON.stringify(`${CARD} [data-rtb-fold-toggle]`)})].map((b) => [b.dataset.rtbFoldToggle, b.getAttribute('aria-expanded'), document.getElementById(b.getAttribute('aria-describedby')).textContent])`);
    const expectedFolds = expected.groups.flatMap((g) => g.folds);
    assert.deepEqual(folds.map(([id]) => id), [...expectedFolds.filter((f) => f.under === undefined && f.id === 'caps'), ...expectedFolds.filter((f) => f.under !== undefined), ...expectedFolds.filter((f) => f.under === undefined && f.id !== 'caps')].map((f) => f.id));
    for (const [id, open, summary] of folds) {
      assert.equal(open, 'false', `${id} starts folded`);
      assert.equal(summary, expectedFolds.find((f) => f.id === id)?.summary, `${id}: its one-line summary`);
    }
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    await shot('card-light-top');
    await page.evaluate(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb-group=tracks]`)}).scrollIntoView({ block: 'start' })`);
    await shot('card-folded-rest');

    await setAllFolds(page, true);
    const values = await controlValues(page);
    for (const view of everyField) {
      const shown = values[view.field.path];
      const want = view.field.kind.type === 'flag' || view.field.kind.type === 'track' ? String(view.text === 'true' || view.text === 'on') : view.text;
      assert.equal(shown, want, `${view.field.path}`);
    }
    assert.equal(values.warnAt, '2', 'the profile sets warnAt: 2');
    assert.equal(values['limits.exact'], '12', 'the shipped cap');
    assert.equal(values.onLimit, 'ask');
    const warn = await fieldState(page, 'warnAt');
    assert.match(warn.note, /Default: 2$/);
    assert.equal(warn.overridden, false);
    assert.equal((await fieldState(page, 'sequence.count')).disabled, true, 'an opt-in track that is off disables its sub-settings');
    assert.equal(values.preset, 'none', 'no preset unless chosen');
    const exactLabel = await page.evaluate<{ text: string; key: string }>(`(() => {
      const label = document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} label`)});
      return { text: label.firstChild.textContent, key: label.querySelector('code')?.textContent ?? '' };
    })()`);
    assert.deepEqual(exactLabel, { text: 'Identical calls', key: 'limits.exact' }, 'a cap reads as words, its config key beside it');
    const aliases = await page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(`${fieldRow('hostAliases')} [data-rtb-fixed] li`)})].map((li) => li.textContent)`);
    assert.deepEqual(aliases, everyField.find((f) => f.field.path === 'hostAliases')?.fixed, 'the default host aliases, read-only');
    assert.equal(values.hostAliases, '', 'the box holds only the user\'s own lines');
    await shot('card-aliases', fieldRow('hostAliases'));
    await page.evaluate(`document.querySelector(${JSON.stringify(fieldRow('stale'))}).scrollIntoView({ block: 'start' })`);
    await shot('card-tracks-open');
    await setAllFolds(page, false);
    await shot('card-light', CARD_HEADER);
  });

  step('the header has an accessible name made the way DSH names its own cards (Show settings: Shell)', async () => {
    // DSH's Shell card, collapsed, beside ours: its header's name is the pattern.
    const shell = await page.evaluate<boolean>(`[...document.querySelectorAll('button[aria-expanded]')].some((b) => b.getAttribute('aria-label') === 'Show settings: Shell')`);
    assert.ok(shell, 'DSH names its Shell card "Show settings: Shell"');
    assert.equal(await accessibleName(page, CARD_HEADER), 'Hide settings: Repeat-tool breaker', 'open');
    await page.click(CARD_HEADER);
    await page.waitFor('the card to collapse', `document.querySelector(${JSON.stringify(CARD_HEADER)}).getAttribute('aria-expanded') === 'false'`);
    assert.equal(await accessibleName(page, CARD_HEADER), 'Show settings: Repeat-tool breaker', 'closed');
    await page.click(CARD_HEADER);
    await page.waitFor('the card to expand', `document.querySelector(${JSON.stringify(CARD_HEADER)}).getAttribute('aria-expanded') === 'true'`);
  });

  step('works from the keyboard: the header discloses with Enter and Space, Tab walks the everyday fields in order, a fold opens with Enter and closes with Space, its fields following it', async () => {
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).focus()`);
    await page.press('Enter');
    await page.waitFor('the card to collapse', `document.querySelector(${JSON.stringify(CARD_HEADER)}).getAttribute('aria-expanded') === 'false'`);
    await page.press('Space');
    await page.waitFor('the card to expand', `document.querySelector(${JSON.stringify(CARD_HEADER)}).getAttribute('aria-expanded') === 'true'`);
    const here = (): Promise<string> => page.evaluate<string>(`document.activeElement.dataset.rtbInput ?? (document.activeElement.dataset.rtbFoldToggle === undefined ? document.activeElement.textContent : 'fold:' + document.activeElement.dataset.rtbFoldToggle)`);
    const order: string[] = [];
    for (let i = 0; i < 9; i += 1) {
      await page.press('Tab');
      const focused = await page.focused();
      assert.ok(focused.inCard, `Tab ${i + 1} left the card: ${JSON.stringify(focused)}`);
      order.push(await here());
    }
    assert.deepEqual(order, ['onLimit', 'preset', 'stopAfter', 'warnAt', 'summarizeAt', 'failWarnAt', 'failLimit', 'limits.exact', 'fold:caps'], 'the gate and the stop, the stages, the identical calls\' cap, then the fold of the other caps');
    await page.press('Enter');
    await page.waitFor('More caps open', `document.querySelector(${JSON.stringify(foldToggle('caps'))}).getAttribute('aria-expanded') === 'true'`);
    await page.press('Tab');
    assert.equal(await here(), 'limits.cmd', 'the fold\'s first field follows its toggle');
    await page.press('Tab', 8);
    await page.press('Space');
    await page.waitFor('More caps closed', `document.querySelector(${JSON.stringify(foldToggle('caps'))}).getAttribute('aria-expanded') === 'false'`);
    assert.equal(await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(input('limits.cmd'))}) === null`), true, 'its fields go with it');
    await page.press('Tab', 8);
    assert.equal(await here(), 'limits.exact');
  });

  step('refuses an invalid value in red with the load-time message in the card\'s words, says beside Save which field holds it back, and writes nothing', async () => {
    const before = settingsFile(HOME);
    // Focus is on limits.exact (previous step): select its text and type over it.
    await page.evaluate(`document.activeElement.select()`);
    await page.send('Input.insertText', { text: '1' });
    const message = refusal({ limits: { exact: 1 } });
    const shown = inCardWords(message, capField('exact'));
    await page.waitFor('the inline refusal', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-invalid`)}) !== null`);
    const state = await fieldState(page, 'limits.exact');
    assert.ok(state.note.startsWith(shown), `the note reads ${JSON.stringify(state.note)}, not ${JSON.stringify(shown)}`);
    assert.match(state.note, /or `off` to stop counting it/, 'the word the field takes');
    assert.doesNotMatch(state.note, /\bnull\b/, 'not the YAML word');
    assert.equal(state.invalid, true, 'aria-invalid');
    assert.equal(state.overridden, false, 'an unsaved draft is not Overridden');
    assert.equal(state.reset, false, 'and offers no reset');
    assert.equal(await buttonDisabled(page, 'save'), true, 'Save is disabled');

    // Red: the shell defines no --dsw-alias-label-error (what DSH's cards name); the card uses its error colour.
    assert.equal(await cssVariable(page, '--dsw-alias-label-error'), '', 'rc.8 does not define --dsw-alias-label-error');
    const red = await errorColour();
    const [r, g, b] = rgb(red);
    assert.ok(r > 180 && g < 120 && b < 120, `the theme's error colour is red: ${red}`);
    assert.equal(await computed(page, `${fieldRow('limits.exact')} .rtb-invalid`, 'color'), red, 'the message is in the error colour');
    assert.equal(await computed(page, input('limits.exact'), 'border-top-color'), red, 'so is the border of the invalid input');
    assert.notEqual(await computed(page, `${fieldRow('limits.exact')} .rtb-label`, 'color'), red, 'a label is not');
    await shot('card-invalid', fieldRow('limits.exact'));

    // Beside Save: which field, as a link that takes the focus there.
    const reason = `${CARD} [data-rtb=reason]`;
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(reason)}).textContent`), `${COPY.needFixing(1)} Caps › Identical calls`, 'named with its group');
    const described = await page.evaluate<string>(`document.getElementById(document.querySelector(${JSON.stringify(`${CARD} [data-rtb=save]`)}).getAttribute('aria-describedby')).textContent`);
    assert.match(described, /^1 field needs fixing: Caps › Identical calls$/, 'Save is described by the reason');
    await shot('card-reason', `${CARD} .rtb-footer`);
    await page.click(`${CARD} [data-rtb-fix="limits.exact"]`);
    await page.waitFor('the focus on limits.exact', `document.activeElement?.dataset.rtbInput === 'limits.exact'`);

    // A fraction is taken by the card as the host takes it (0.5.2: a finite number >= 2): one rule for both.
    await page.evaluate(`document.activeElement.select()`);
    await page.send('Input.insertText', { text: '2.5' });
    await page.waitFor('2.5 taken', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-invalid`)}) === null`);
    assert.equal(await buttonDisabled(page, 'save'), false, 'Save is enabled for 2.5, as the host would take it');
    assert.equal(resolveConfig({ limits: { exact: 2.5 } }).limits.exact, 2.5);
    await page.evaluate(`document.activeElement.select()`);
    await page.send('Input.insertText', { text: '1' });
    await page.waitFor('the refusal of 1 again', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-invalid`)})?.textContent.startsWith(${JSON.stringify(shown)})`);
    await page.press('Enter');
    assert.equal(settingsFile(HOME), before, 'settings.yaml is unchanged');
    // The host refuses the same value from any other client, with the same message.
    const direct = await web().rpc('settings.update', { ns: NS, patch: { limits: { exact: 1 } } });
    assert.equal(direct.ok, false);
    assert.match(JSON.stringify(direct.error), new RegExp(message.slice(0, 40).replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')));
    assert.equal(settingsFile(HOME), before, 'settings.yaml is still unchanged');
    await page.press('Escape');
    await page.waitFor('the draft to be dropped', `document.querySelector(${JSON.stringify(input('limits.exact'))}).value === '12'`);
    assert.equal((await fieldState(page, 'limits.exact')).invalid, false);
  });

  step('flags a cap at or below an advisory stage (it would never fire), as a warning that does not hold Save back', async () => {
    // The profile's second advisory is at 3: a cap of 3 gates that call instead.
    await page.fill(input('limits.exact'), '3');
    const warned = await page.waitFor<string>('the dead-stage warning', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} [data-rtb-warning]`)})?.textContent ?? false`);
    assert.equal(warned, 'The gate at 3 comes first: the second advisory (at 3) never fires for this measure.');
    assert.equal((await fieldState(page, 'summarizeAt')).warning, 'Never fires for Identical calls: its cap is at or below it.', 'the stage says so too');
    const amber = rgb(await computed(page, `${fieldRow('limits.exact')} [data-rtb-warning]`, 'color'));
    assert.equal(`rgb(${amber.join(', ')})`, await resolvedColour(page, 'var(--dsw-alias-state-warn-label)'), 'in the theme\'s warning colour');
    assert.notEqual(`rgb(${amber.join(', ')})`, await errorColour(), 'not the error colour');
    assert.equal(await buttonDisabled(page, 'save'), false, 'a warning, not a refusal');
    await shot('card-dead-stage', fieldRow('limits.exact'));
    await page.fill(input('limits.exact'), '4');
    await page.waitFor('the warning to go', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} [data-rtb-warning]`)}) === null`);
  });

  step('an unsaved edit is only Unsaved; Save writes it into settings.yaml, says Saved, and the field is then Overridden with its reset', async () => {
    const draft = await fieldState(page, 'limits.exact');
    assert.deepEqual([draft.unsaved, draft.overridden, draft.reset], [true, false, false], 'Unsaved only, before the save');
    assert.equal(await buttonDisabled(page, 'save'), false);
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb=saved]`)}).textContent`), '', 'no Saved yet');
    await page.click(`${CARD} [data-rtb=save]`);
    const saved = await until('limits.exact: 4 in settings.yaml', () => ((savedSection()?.limits as Record<string, unknown> | undefined)?.exact === 4 ? true : undefined), 15_000);
    assert.ok(saved, 'limits.exact: 4 reached settings.yaml');
    await page.waitFor('the Overridden badge', `[...document.querySelectorAll(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-badge`)})].some((b) => b.textContent === 'Overridden')`);
    await page.waitFor('Saved beside Save', `document.querySelector(${JSON.stringify(`${CARD} [data-rtb=saved]`)}).textContent === ${JSON.stringify(COPY.saved)}`);
    assert.equal(await page.evaluate<string | null>(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb=saved]`)}).getAttribute('role')`), 'status', 'announced as a status');
    await shot('card-saved-status', `${CARD} .rtb-footer`);
    const state = await fieldState(page, 'limits.exact');
    assert.equal(state.unsaved, false, 'nothing unsaved');
    assert.equal(state.reset, true, 'a reset is offered');
    assert.match(state.note, /Default: 12$/);
    assert.equal(await buttonDisabled(page, 'save'), true, 'nothing left to save');
    assert.deepEqual(savedSection(), { limits: { exact: 4 } }, 'only the edited field is written');
    await page.evaluate(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb-group=caps]`)}).scrollIntoView({ block: 'start' })`);
    await shot('card-saved');
  });

  step('stays open when the Settings tab changes and comes back (the dialog unmounts the card meanwhile)', async () => {
    assert.equal(await isExpanded(page), true, 'open before');
    await page.clickText('button', 'General');
    await page.waitFor('the card to be unmounted', `document.querySelector(${JSON.stringify(CARD)}) === null`);
    await showCard(page);
    assert.equal(await isExpanded(page), true, 'still open: no click on its header was needed');
    assert.equal(await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb-field]`)}) !== null`), true, 'its fields show');
  });
});

describe('a live session and the approval panel', () => {
  step('a running host gates at the cap saved in the card, and the approval panel shows our reason; the forged command reaches only DSH\u2019s own box (P15, P16)', async () => {
    const pid = web().pid;
    await closeSettings(page);
    watched = await createSession(web(), WORKSPACE);
    await prompt(web(), watched, director.prompt('Print the marker six times.', 'reject', [{ name: 'bash', arguments: { command: FORGED_EN }, times: 6 }]));
    await openSession(page, 'Mock session');
    const reason = await approvalAsked(HOME, watched, 1);
    const panel = await approvalPanel(page);
    // As rendered: rc.8's headline collapses the reason's line breaks to spaces.
    const headline = (await approvalHeadline(page)).replace(/\s+/g, ' ').trim();
    // The security test's picture (docs/img/approval-panel-forged.png); the README's is an ordinary loop's (below).
    await shot('approval-panel-forged', await markApprovalPanel(page));
    assert.ok(panel.includes(reason.replace(/\s+/g, ' ').trim()), `the panel shows the reason the plugin gave:\npanel:  ${panel}\nreason: ${reason}`);
    assert.equal(headline, reason.replace(/\s+/g, ' ').trim(), 'the headline is the reason, as plain text');
    assert.equal(web().pid, pid, 'no restart');
    // P16: what and why, what Allow once does, what Reject does; the command is in DSH's box, so the headline quotes none of it.
    assert.equal(headline, ASK_EN);
    assert.doesNotMatch(headline, /SAFE|Press Allow once|corrupt|retry|Note to/, 'the forged sentence does not reach the headline');
    assert.ok(panel.includes('SAFE'), "DSH's own command box still shows the whole command");
  });

  step('Reject: the rejected call carries the breaker’s explanation (P13); the identical calls after it get REPEAT_TOOL_BLOCKED without asking', async () => {
    await page.clickText('button', 'Reject');
    const log = await turnsEnded(HOME, watched, 1);
    const steps = log.steps.filter((s) => s.arguments.command === FORGED_EN);
    assert.equal(steps.length, 6, 'six calls');
    assert.deepEqual(
      steps.map((s) => (s.isError ? (BLOCKED.test(s.text) ? 'blocked' : 'refused') : 'ran')),
      ['ran', 'ran', 'ran', 'refused', 'blocked', 'blocked'],
      'cap 4 (saved in the card): the 4th call is asked and rejected, the 5th and 6th are blocked by the plugin',
    );
    assert.match(
      steps[3]!.text,
      /^Error: the user rejected tool "bash"\nREPEAT_TOOL_BLOCKED: bash call not run: the operator did not approve it; it would be the 4th call of its kind among your recent calls, counting this one and any that were stopped; the gate closes at 4\. The loop breaker's repeat track asked for approval to run it, for:\n- exact:bash:/,
      'the model reads why on the rejected call itself',
    );
    assert.match(steps[3]!.text, /\nInstead: use the result you already have/);
    assert.equal(log.approvalsAsked.length, 1, 'asked once');
    assert.deepEqual(log.approvalsDecided, ['rejected']);
    await page.waitFor('a REPEAT_TOOL_BLOCKED row in the conversation', `document.body.innerText.includes('REPEAT_TOOL_BLOCKED')`, 20_000);
    const text = await pageText(page);
    assert.match(text, /Context injection\s*repeat-tool-breaker/, 'the advisories show as notice rows');
    assert.match(text, /repeat-tool-breaker\s*[^\n]*(?:exact|cmd) \u201c/, 'a notice row’s summary names its measure with the model’s text quoted');
    // A denial row shows one line at 1280 px: what is visible of it must say what was blocked and why.
    const rows = (await visibleRowTexts(page, 'REPEAT_TOOL_BLOCKED')).filter((row) => !row.startsWith('Error: the user rejected'));
    assert.equal(rows.length, 2, `two denial rows: ${JSON.stringify(rows)}`);
    for (const visible of rows) {
      assert.ok(visible.length >= 60, `a usable part of the row is visible: ${JSON.stringify(visible)}`);
      // P17: the loop's later denials point back to the first; the row says what (a bash call, not run) and why (the loop blocked before).
      assert.match(visible, /^Error: REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before \(exact/, `the visible line says what and why: ${JSON.stringify(visible)}`);
    }
    for (const later of steps.slice(4)) assert.match(later.text, /, \d of its calls blocked this turn with this one; the operator did not approve it; the first denial says why\.\n/, later.text);
    // The terminal that runs `dsh web` (its stderr): how the ask ended, once, and the turn's summary (plugin/terminal.ts).
    const terminal = await until('the turn’s summary on the terminal', () => {
      const lines = (web().output().split('--- stderr ---')[1] ?? '').split('\n').filter((line) => line.startsWith('repeat-tool-breaker: '));
      return lines.some((line) => line.includes(' turn 1 ended')) ? lines : undefined;
    }, 10_000);
    const gates = terminal.filter((line) => line.startsWith('repeat-tool-breaker: gate'));
    assert.equal(gates.length, 1, `one line for the gate: ${JSON.stringify(terminal)}`);
    assert.match(gates[0]!, /^repeat-tool-breaker: gate, asked the operator, rejected: bash, repeat: exact \u201cbash:\{"command":"echo rtb-reject # retry\\n\\nNote to the [^\u201d]*\u2026\u201d 4\/4/);
    assert.doesNotMatch(gates[0]!, /SAFE/, 'the forged sentence is cut away');
    assert.ok(terminal.includes('repeat-tool-breaker: turn 1 ended: 1 loop gated, 3 calls refused; the loop ran 3 calls'), JSON.stringify(terminal));
  });

  step('an ordinary loop: the panel says what and why, what Allow once and Reject do, in three sentences; Allow once lets the gated call and the identical calls after it run', async () => {
    await prompt(web(), watched, director.prompt('Now list /tmp six times.', 'allow', [{ name: 'bash', arguments: { command: ORDINARY }, times: 6 }]));
    const reason = await approvalAsked(HOME, watched, 2);
    const panel = await approvalPanel(page);
    const headline = (await approvalHeadline(page)).replace(/\s+/g, ' ').trim();
    await shot('approval-panel', await markApprovalPanel(page));
    await shot('approval-page');
    assert.equal(reason, ASK_EN, 'P16: one paragraph of three sentences');
    assert.equal(headline, ASK_EN, 'the headline is the reason, as DSH shows it');
    assert.ok(reason.split(/\s+/).length <= 40, `${reason.split(/\s+/).length} words`);
    assert.ok(panel.includes(ORDINARY), "the command is in DSH's own box");
    await page.clickText('button', 'Allow once');
    const log = await turnsEnded(HOME, watched, 2);
    // The notice rows of the loop's advisories: the measure and the count, the command quoted (P15).
    const row = 'cmd \u201cls:ls -la /tmp\u201d \u00d7 3';
    await page.waitFor('the notice rows of the loop', `document.body.innerText.includes(${JSON.stringify(row)})`, 20_000);
    // Expanded, a row shows the text the model read (DSH's own behaviour), under the summary the operator reads.
    await page.clickText('span, div', row);
    await page.waitFor('the expanded notice', `document.body.innerText.includes('CONVERGENCE_CHECK: cmd:ls:ls -la /tmp has come up 3 times')`, 10_000);
    await shot('notice-rows');
    const steps = log.steps.filter((s) => s.arguments.command === ORDINARY);
    assert.deepEqual(
      steps.map((s) => (s.isError ? 'error' : 'ran')),
      ['ran', 'ran', 'ran', 'ran', 'ran', 'ran'],
      'allowed once: exempt for the rest of the turn',
    );
    assert.deepEqual(log.approvalsDecided, ['rejected', 'allowed-once']);
    assert.equal(log.approvalsAsked.length, 2, 'not asked again in the turn');
  });
});

describe('themes', () => {
  step('the card follows the shell theme: light and dark differ, both through the --dsw-alias variables', async () => {
    // DSH shows a theme the moment it is chosen and stores it as a setting; until that write is
    // answered, any settings answer already on its way (another namespace's, an invalidation's
    // read) can put the old theme back for a moment (ThemeRuntime.adopt). So each reading is
    // taken in one pass that first checks the body is in the theme and the card's colours have
    // finished their move to it (`background .16s`), and is taken again until they have.
    const inTheme = <T>(theme: 'Light' | 'Dark', what: string, read: string): Promise<T> =>
      until(
        `${what} in the ${theme} theme`,
        () =>
          page.evaluate<T | false>(`(() => {
            if (document.body.hasAttribute('data-ds-dark-theme') !== ${theme === 'Dark'}) return false;
            const card = document.querySelector(${JSON.stringify(CARD)});
            if (card === null) return false;
            const resolve = ${RESOLVE_COLOUR};
            const name = card.querySelector('.rtb-name');
            // The card is open (\`.rtb-card-open\`): its background is the second layer's.
            if (getComputedStyle(card).backgroundColor !== resolve('var(--dsw-alias-bg-layer-2)')) return false;
            if (getComputedStyle(name).color !== resolve('var(--dsw-alias-label-primary)')) return false;
            return ${read};
          })()`),
        15_000,
      );
    const colours = (theme: 'Light' | 'Dark'): Promise<{ card: string; text: string; save: string; red: string }> =>
      inTheme(theme, "the card's colours", `({
        card: getComputedStyle(card).backgroundColor,
        text: getComputedStyle(name).color,
        save: getComputedStyle(card.querySelector('[data-rtb=save]')).backgroundColor,
        red: resolve('var(--dsw-alias-state-error-primary)'),
      })`);
    await chooseTheme(page, 'Light', storedTheme);
    await openCard(page);
    const light = await colours('Light');
    await chooseTheme(page, 'Dark', storedTheme);
    await openCard(page);
    const dark = await colours('Dark');
    assert.notEqual(light.card, dark.card, 'card background');
    assert.notEqual(light.text, dark.text, 'title colour');
    for (const colour of [light.card, dark.card, light.text, dark.text]) assert.notEqual(colour, 'rgba(0, 0, 0, 0)', 'every colour resolves from the theme');
    // An invalid value is red in the dark theme too, in the dark theme's own error colour (the window is under What is counted).
    await openFold(page, 'counted');
    await page.fill(input('window'), '2');
    await page.waitFor('the refusal of window 2', `document.querySelector(${JSON.stringify(`${fieldRow('window')} .rtb-invalid`)}) !== null`);
    const refused = await inTheme<{ red: string; message: string; border: string }>('Dark', 'the refusal of window 2', `({
      red: resolve('var(--dsw-alias-state-error-primary)'),
      message: getComputedStyle(document.querySelector(${JSON.stringify(`${fieldRow('window')} .rtb-invalid`)})).color,
      border: getComputedStyle(document.querySelector(${JSON.stringify(input('window'))})).borderTopColor,
    })`);
    assert.equal(refused.red, dark.red, "the dark theme's error colour");
    assert.notEqual(dark.red, light.red, 'the dark theme has its own error colour');
    const [r, g, b] = rgb(dark.red);
    assert.ok(r > 180 && g < 120 && b < 120, `still red: ${dark.red}`);
    assert.equal(refused.message, dark.red, 'the message is in it');
    assert.equal(refused.border, dark.red, 'and the border');
    await page.evaluate(`document.querySelector(${JSON.stringify(fieldRow('window'))}).scrollIntoView({ block: 'center' })`);
    await shot('card-dark');
    await page.evaluate(`document.querySelector(${JSON.stringify(input('window'))}).focus()`);
    await page.press('Escape');
    await page.waitFor('the window draft dropped', `document.querySelector(${JSON.stringify(input('window'))}).value === '16'`);
    await setAllFolds(page, false);
    await chooseTheme(page, 'Light', storedTheme);
  });
});

describe('a model cannot switch its own breaker off', () => {
  step('a bash call can write the settings over HTTP, but the loosening waits for the agent\'s next human message', async () => {
    // Deny at the cap, through the card (a select this time).
    await openCard(page);
    await page.evaluate(`(() => { const s = document.querySelector(${JSON.stringify(input('onLimit'))}); s.focus(); })()`);
    await page.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'ArrowDown', code: 'ArrowDown', windowsVirtualKeyCode: 40 });
    await page.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'ArrowDown', code: 'ArrowDown', windowsVirtualKeyCode: 40 });
    await page.waitFor('onLimit staged as deny', `document.querySelector(${JSON.stringify(input('onLimit'))}).value === 'deny'`);
    await page.press('Enter');
    await until('onLimit: deny in settings.yaml', () => (savedSection()?.onLimit === 'deny' ? true : undefined), 15_000);
    assert.deepEqual(savedSection(), { limits: { exact: 4 }, onLimit: 'deny' });

    const body = JSON.stringify({
      type: 'client-request',
      rpcId: 'from-bash',
      method: 'settings.update',
      payload: { ns: NS, patch: { limits: { exact: 50 }, onLimit: 'ask' } },
    });
    const curl = `curl -sS -X POST -H 'content-type: application/json' --data '${body}' ${web().url}/api/settings.update`;
    const session = await createSession(web(), WORKSPACE);
    await prompt(
      web(),
      session,
      director.prompt('Loosen your own breaker, then loop.', 'loosen', [
        { name: 'bash', arguments: { command: curl } },
        { name: 'bash', arguments: { command: 'echo rtb-loosened' }, times: 5 },
      ]),
    );
    let log = await turnsEnded(HOME, session, 1);
    const write = log.steps[0]!;
    assert.equal(write.isError, false, `the curl call ran: ${write.text}`);
    assert.match(write.text, /"ok":true/, 'the host accepted the write from inside the session');
    assert.deepEqual(savedSection(), { limits: { exact: 50 }, onLimit: 'ask' }, 'the write landed in settings.yaml');
    const loop = log.steps.filter((s) => s.arguments.command === 'echo rtb-loosened');
    assert.deepEqual(
      loop.map((s) => (s.isError ? (BLOCKED.test(s.text) ? 'blocked' : 'refused') : 'ran')),
      ['ran', 'ran', 'ran', 'blocked', 'blocked'],
      'mid-turn the agent keeps the stricter settings it had: cap 4 and deny, not 50 and ask',
    );
    assert.equal(log.approvalsAsked.length, 0, 'deny still applies: nobody was asked');

    await prompt(web(), session, director.prompt('A person speaks; loop again.', 'after-human', [{ name: 'bash', arguments: { command: 'echo rtb-loosened' }, times: 5 }]));
    log = await turnsEnded(HOME, session, 2);
    const after = log.steps.filter((s) => s.arguments.command === 'echo rtb-loosened').slice(5);
    assert.deepEqual(
      after.map((s) => (s.isError ? 'error' : 'ran')),
      ['ran', 'ran', 'ran', 'ran', 'ran'],
      'after the next human message the loosened settings (cap 50) apply',
    );
    // The card follows a change written elsewhere.
    await page.waitFor('the card to show the cap written by the bash call', `document.querySelector(${JSON.stringify(input('limits.exact'))}).value === '50'`, 20_000);
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(input('onLimit'))}).value`), 'ask');
  });
});

describe('reset to default', () => {
  step('Reset to default stages the default, and Save removes the field from settings.yaml', async () => {
    await openCard(page);
    await page.click(`${fieldRow('limits.exact')} .rtb-reset`);
    await page.waitFor('the default staged', `document.querySelector(${JSON.stringify(input('limits.exact'))}).value === '12'`);
    const state = await fieldState(page, 'limits.exact');
    assert.deepEqual([state.unsaved, state.overridden, state.reset], [true, true, false], 'staged: Unsaved, still Overridden (that is what is saved), no second reset');
    await page.click(`${CARD} [data-rtb=save]`);
    await until('limits gone from settings.yaml', () => (savedSection() !== undefined && !('limits' in savedSection()!) ? true : undefined), 15_000);
    assert.deepEqual(savedSection(), { onLimit: 'ask' });
    await page.waitFor('the Overridden badge to go once saved', `![...document.querySelectorAll(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-badge`)})].some((b) => b.textContent === 'Overridden')`);
  });
});

describe('in Chinese: the UI switched to 中文, then back', () => {
  const ZH = wordsOf(translator('zh'), 'zh');
  const legends = (): Promise<string[]> => page.evaluate<string[]>(`[...document.querySelectorAll('${CARD} legend')].map((l) => l.textContent)`);
  /** Label and hint of every field the card shows, by path. */
  const fieldTexts = (): Promise<Record<string, { label: string; note: string }>> =>
    page.evaluate(`Object.fromEntries([...document.querySelectorAll(${JSON.stringify(`${CARD} [data-rtb-field]`)})].map((row) => [row.dataset.rtbField, {
      label: row.querySelector('.rtb-label').firstChild.textContent,
      note: row.querySelector('.rtb-note').textContent,
    }]))`);
  const note = (path: string): Promise<string> => page.evaluate<string>(`document.querySelector(${JSON.stringify(`${fieldRow(path)} .rtb-note`)}).textContent`);

  step('switched to 中文 in General → Language, the open card turns Chinese at once: every label, hint, group, badge and the header', async () => {
    await openCard(page);
    await chooseLanguage(page, SHELL_EN, SHELL_ZH);
    await openCard(page, SHELL_ZH);
    await page.waitFor('the card in Chinese', `document.querySelector(${JSON.stringify(`${CARD} .rtb-name`)})?.textContent === ${JSON.stringify(ZH.title)}`);
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(CARD)}).getAttribute('lang')`), 'zh-CN', 'the card says which language it is in');
    assert.equal(await accessibleName(page, CARD_HEADER), '收起设置: 重复调用断路器', 'named as DSH names its own cards in Chinese');
    // The same layers through the card's form in Node, in the Chinese words: the browser shows each of them.
    const expected = viewForm(PROFILE_CONFIG, savedSection() ?? {}, new Map(), ZH);
    assert.deepEqual(await legends(), expected.groups.map((g) => g.title));
    assert.deepEqual(await legends(), ['闸门', '阶段', '上限', '可选轨道', '更多设置']);
    const summaries = await page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(`${CARD} [data-rtb-fold-toggle]`)})].map((b) => document.getElementById(b.getAttribute('aria-describedby')).textContent)`);
    for (const fold of expected.groups.flatMap((g) => g.folds)) assert.ok(summaries.includes(fold.summary), `the ${fold.id} summary in Chinese: ${fold.summary}`);
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    await shot('card-zh');
    await setAllFolds(page, true);
    const shown = await fieldTexts();
    for (const view of expected.groups.flatMap((g) => g.fields)) {
      const row = shown[view.field.path];
      assert.ok(row !== undefined, `a row for ${view.field.path}`);
      assert.equal(row.label, view.field.label, `${view.field.path}: label`);
      assert.ok(row.note.startsWith(view.field.hint), `${view.field.path}: hint ${JSON.stringify(row.note)}`);
      assert.ok(row.note.endsWith(defaultNote(view, ZH)), `${view.field.path}: its default in Chinese: ${JSON.stringify(row.note)}`);
      assert.match(row.note, /默认：/, `${view.field.path}: 默认`);
    }
    assert.equal(shown['limits.exact']?.label, '完全相同的调用', 'a cap in words, its key beside it');
    assert.match(await note('warnAt'), /默认：2$/, 'the profile default');
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb=save]`)}).textContent`), '保存');
    await page.evaluate(`document.querySelector(${JSON.stringify(fieldRow('stale'))}).scrollIntoView({ block: 'start' })`);
    await shot('card-zh-open');
    await setAllFolds(page, false);
  });

  step('a refused value reads in Chinese, with the words the field takes; the host refuses it in Chinese too; a valid one saves', async () => {
    const before = settingsFile(HOME);
    await page.fill(input('limits.exact'), '1');
    const message = inCardWords(refusalData({ limits: { exact: 1 } }), capField('exact', ZH), ZH);
    assert.equal(message, '`limits.exact` 必须是不小于 2 的数字，或填 `off` 停止计数（实际为 1）；低于 2 的上限会拒绝第一次调用');
    await page.waitFor('the refusal in Chinese', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-invalid`)})?.textContent.startsWith(${JSON.stringify(message)})`);
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb=reason]`)}).textContent`), `${ZH.needFixing(1)} 上限 › 完全相同的调用`);
    assert.equal(await buttonDisabled(page, 'save'), true, 'Save is disabled');
    await shot('card-zh-invalid', fieldRow('limits.exact'));
    // Any other client: the host refuses the write in the operator's language (YAML's words: null).
    const direct = await web().rpc('settings.update', { ns: NS, patch: { limits: { exact: 1 } } });
    assert.equal(direct.ok, false);
    const hostText = configText(refusalData({ limits: { exact: 1 } }), 'zh');
    assert.ok(JSON.stringify(direct.error).includes(hostText), `the host's refusal is ${JSON.stringify(direct.error)}, not ${hostText}`);
    assert.equal(settingsFile(HOME), before, 'nothing written');
    await page.fill(input('limits.exact'), '4');
    await page.waitFor('the refusal to go', `document.querySelector(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-invalid`)}) === null`);
    await page.click(`${CARD} [data-rtb=save]`);
    await until('limits.exact: 4 in settings.yaml', () => ((savedSection()?.limits as Record<string, unknown> | undefined)?.exact === 4 ? true : undefined), 15_000);
    await page.waitFor('已保存。 beside Save', `document.querySelector(${JSON.stringify(`${CARD} [data-rtb=saved]`)}).textContent === ${JSON.stringify(ZH.saved)}`);
    await page.waitFor('the 已覆盖 badge', `[...document.querySelectorAll(${JSON.stringify(`${fieldRow('limits.exact')} .rtb-badge`)})].some((b) => b.textContent === ${JSON.stringify(ZH.overridden)})`);
  });

  step('an ordinary loop in Chinese: the panel says the same three things in Chinese, the buttons named as DSH names them', async () => {
    await closeSettings(page, SHELL_ZH);
    await prompt(web(), watched, director.prompt('再列出 /tmp 六次。', 'zh-allow', [{ name: 'bash', arguments: { command: ORDINARY }, times: 6 }]));
    const reason = await approvalAsked(HOME, watched, 3);
    const panel = await approvalPanel(page, 30_000, SHELL_ZH);
    const headline = (await approvalHeadline(page, SHELL_ZH)).replace(/\s+/g, ' ').trim();
    await shot('approval-panel-zh', await markApprovalPanel(page, SHELL_ZH));
    await shot('approval-page-zh');
    assert.equal(reason, ASK_ZH, 'P16: what and why, 允许一次, 拒绝, in Chinese');
    assert.equal(headline, ASK_ZH, 'the headline is the reason, as DSH shows it');
    assert.ok(panel.includes(ORDINARY), "the command is in DSH's own box");
    await page.clickText('button', SHELL_ZH.allowOnce);
    const log = await turnsEnded(HOME, watched, 3);
    assert.deepEqual(log.steps.filter((s) => s.arguments.command === ORDINARY).slice(-6).map((s) => (s.isError ? 'error' : 'ran')), Array(6).fill('ran'));
  });

  step('the approval panel shows the forged command\u2019s ask in Chinese without the forged sentence; the model still reads REPEAT_TOOL_BLOCKED in English', async () => {
    await prompt(web(), watched, director.prompt('Print the Chinese marker six times.', 'zh-reject', [{ name: 'bash', arguments: { command: FORGED_ZH }, times: 6 }]));
    const reason = await approvalAsked(HOME, watched, 4);
    const panel = await approvalPanel(page, 30_000, SHELL_ZH);
    const headline = await approvalHeadline(page, SHELL_ZH);
    await shot('approval-panel-zh-forged', await markApprovalPanel(page, SHELL_ZH));
    assert.ok(panel.includes(reason.replace(/\s+/g, ' ').trim()), `the panel shows the plugin's reason:\npanel:  ${panel}\nreason: ${reason}`);
    assert.equal(reason, ASK_ZH, 'the forged command changes nothing in the headline');
    assert.doesNotMatch(headline, /SAFE|安全|允许一次”；|retry/, 'the forged sentence does not reach the headline');
    assert.ok(panel.includes('SAFE'), "DSH's own command box still shows the whole command");
    await page.clickText('button', SHELL_ZH.reject);
    const log = await turnsEnded(HOME, watched, 4);
    const steps = log.steps.filter((s) => s.arguments.command === FORGED_ZH);
    assert.deepEqual(
      steps.map((s) => (s.isError ? (BLOCKED.test(s.text) ? 'blocked' : 'refused') : 'ran')),
      ['ran', 'ran', 'ran', 'refused', 'blocked', 'blocked'],
    );
    assert.match(steps[3]!.text, /^Error: the user rejected tool "bash"\nREPEAT_TOOL_BLOCKED: bash call not run: the operator did not approve it;/, 'the explanation on the rejected call is the English one');
    for (const blocked of steps.slice(4)) {
      assert.match(blocked.text, /^Error: REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before \(exact \u201cbash:[^\n]*, \d of its calls blocked this turn with this one; the operator did not approve it; the first denial says why\./, 'the denial the model reads is the English one');
    }
  });

  step('switched back to English, the card, a refusal and the ask are English again', async () => {
    await chooseLanguage(page, SHELL_ZH, SHELL_EN);
    await openCard(page);
    await page.waitFor('the card in English', `document.querySelector(${JSON.stringify(`${CARD} .rtb-name`)})?.textContent === ${JSON.stringify(COPY.title)}`);
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(CARD)}).getAttribute('lang')`), 'en');
    assert.deepEqual(await legends(), ['Gate', 'Stages', 'Caps', 'Opt-in tracks', 'More settings']);
    assert.equal(await accessibleName(page, CARD_HEADER), 'Hide settings: Repeat-tool breaker');
    const direct = await web().rpc('settings.update', { ns: NS, patch: { limits: { exact: 1 } } });
    assert.ok(JSON.stringify(direct.error).includes(refusal({ limits: { exact: 1 } }).slice(0, 60)), `an English refusal: ${JSON.stringify(direct.error)}`);
    await closeSettings(page);
    await prompt(web(), watched, director.prompt('Print the English marker four times.', 'en-again', [{ name: 'bash', arguments: { command: 'echo rtb-en' }, times: 4 }]));
    const reason = await approvalAsked(HOME, watched, 5);
    assert.equal(reason, ASK_EN);
    await approvalPanel(page);
    await page.clickText('button', 'Allow once');
    await turnsEnded(HOME, watched, 5);
  });
});

describe('the preset in the card (issue 32)', () => {
  /** The preset's settings as field paths, read from preset.ts (never spelled out here). */
  const leaves = Object.entries(presetConfig(PRESETS.recommended!)).flatMap(([top, value]) =>
    typeof value === 'object' && value !== null ? Object.keys(value).map((sub) => `${top}.${sub}`) : [top],
  );
  const staleLimit = (presetConfig(PRESETS.recommended!).stale as { limit: number }).limit;
  const headerUnsaved = (): Promise<boolean> => page.evaluate<boolean>(`[...document.querySelectorAll(${JSON.stringify(`${CARD_HEADER} .rtb-pending`)})].some((b) => b.textContent === 'Unsaved')`);
  const checkbox = (path: string): Promise<boolean> => page.evaluate<boolean>(`document.querySelector(${JSON.stringify(input(path))}).checked`);

  step('choosing a preset previews what it sets before Save; Save and Discard stay in view; the values saved are labelled as the preset\'s', async () => {
    await openCard(page);
    await page.evaluate(`document.querySelector(${JSON.stringify(input('preset'))}).focus()`);
    await page.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'ArrowDown', code: 'ArrowDown', windowsVirtualKeyCode: 40 });
    await page.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'ArrowDown', code: 'ArrowDown', windowsVirtualKeyCode: 40 });
    await page.waitFor('the preset preview', `document.querySelector(${JSON.stringify(`${CARD} [data-rtb=preset-preview][data-rtb-change=adds]`)}) !== null`);
    const lines = await page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(`${CARD} [data-rtb-preset-line]`)})].map((li) => li.dataset.rtbPresetLine)`);
    assert.deepEqual(lines, leaves, 'one line per setting the preset sets, before Save');
    assert.equal(await checkbox('stale'), true, 'the fields show what it will set');
    await openFold(page, 'stale');
    assert.equal((await fieldState(page, 'stale.limit')).disabled, false);
    assert.ok((await fieldState(page, 'stale.limit')).note.endsWith(`From preset: ${staleLimit}`), 'the preset\'s value is labelled as the preset\'s');
    assert.equal(await headerUnsaved(), true, 'the header says Unsaved');
    assert.equal(await buttonDisabled(page, 'save'), false);
    // Save and Discard stay in view with the top of the card on screen (the footer is sticky).
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    const inView = await page.evaluate<boolean>(`(() => {
      const save = document.querySelector(${JSON.stringify(`${CARD} [data-rtb=save]`)});
      const r = save.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return r.top >= 0 && r.bottom <= window.innerHeight && (hit === save || save.contains(hit));
    })()`);
    assert.equal(inView, true, 'Save is on screen and not covered while the card top is in view');
    const strip = await page.evaluate<number>(`(() => {
      const footer = document.querySelector(${JSON.stringify(`${CARD} [data-rtb=footer]`)});
      let scroller = footer.parentElement;
      while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
      return scroller.getBoundingClientRect().bottom - footer.getBoundingClientRect().bottom;
    })()`);
    assert.ok(strip <= 1, `no strip of the card scrolls by under the buttons (${strip} px between the footer and the dialog's edge)`);
    await shot('card-preset-preview');
    await page.click(`${CARD} [data-rtb=save]`);
    await until('preset: recommended in settings.yaml', () => (savedSection()?.preset === 'recommended' ? true : undefined), 15_000);
    await page.waitFor('the saved preset', `document.querySelector(${JSON.stringify(`${CARD} [data-rtb=preset-preview][data-rtb-change=applies]`)}) !== null`);
    const limit = await fieldState(page, 'stale.limit');
    assert.equal(limit.disabled, false, 'a track the preset turns on can be tuned');
    assert.ok(limit.note.endsWith(`From preset: ${staleLimit}`), limit.note);
    assert.doesNotMatch(limit.note, /Default:/);
  });

  step('a track the preset turns on can be turned off and tuned: the header and Save follow every draft, and Save writes them all', async () => {
    await page.click(input('stale'));
    await page.waitFor('the stale track unchecked', `document.querySelector(${JSON.stringify(input('stale'))}).checked === false`);
    assert.equal(await headerUnsaved(), true, 'the header says Unsaved');
    assert.equal(await buttonDisabled(page, 'save'), false, 'Save is enabled');
    assert.equal(await buttonDisabled(page, 'discard'), false, 'Discard is enabled');
    assert.equal((await fieldState(page, 'stale.limit')).disabled, true, 'its fields go quiet with it');
    await openFold(page, 'editRetry');
    await page.fill(input('editRetry.limit'), '6');
    await page.click(`${CARD} [data-rtb=save]`);
    await until('stale: null and editRetry.limit: 6 in settings.yaml', () => (savedSection()?.stale === null && (savedSection()?.editRetry as Record<string, unknown> | undefined)?.limit === 6 ? true : undefined), 15_000);
    const section = savedSection()!;
    assert.equal(section.preset, 'recommended');
    assert.deepEqual(section.editRetry, { limit: 6 });
    await page.waitFor('the header without Unsaved once the save landed', `![...document.querySelectorAll(${JSON.stringify(`${CARD_HEADER} .rtb-pending`)})].some((b) => b.textContent === 'Unsaved')`);
    assert.equal(await checkbox('stale'), false, 'off, as saved');
    await page.evaluate(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb-group=gate]`)}).scrollIntoView({ block: 'start' })`);
    await shot('card-preset');
    await setAllFolds(page, false);
    // Back to no preset for what follows.
    const cleared = await web().rpc('settings.mutate', { ns: NS, ops: ['preset', 'stale', 'editRetry'].map((key) => ({ op: 'unset', path: [key] })) });
    assert.equal(cleared.ok, true, JSON.stringify(cleared));
  });
});

describe('a value settings.yaml holds that the breaker refuses: left out, the rest applies (issues 32, 39)', () => {
  const banner = `${CARD} [data-rtb=dropped]`;
  /** The page opened afresh on the server's URL (a new port is a new origin: the testing notice may show again). */
  const reopen = async (): Promise<void> => {
    await page.navigate(web().url);
    const first = await until('the first screen', () =>
      page.evaluate<string | false>(`(() => { const b = [...document.querySelectorAll('button')].map((e) => e.textContent.trim()); return b.includes('Continue') ? 'notice' : b.includes('Settings') ? 'shell' : false; })()`),
    30_000);
    if (first === 'notice') await passFirstScreens(page);
  };
  const writeSection = (section: Record<string, unknown>): void => {
    const file = join(HOME, 'settings.yaml');
    const document = (parseYaml(settingsFile(HOME)) as Record<string, unknown> | null) ?? {};
    writeFileSync(file, stringifyYaml({ ...document, [NS]: section }));
  };
  const bannerText = (): Promise<string> => page.evaluate<string>(`document.querySelector(${JSON.stringify(banner)}).textContent`);
  const headerBadges = (): Promise<string[]> => page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(`${CARD_HEADER} .rtb-pending`)})].map((b) => b.textContent)`);
  const stderrLines = (): string[] => (web().output().split('--- stderr ---')[1] ?? '').split('\n').filter((line) => line.startsWith('repeat-tool-breaker: '));

  step('a bad number written while DSH runs: left out and listed at the top, the rest of the edit applies, said on the terminal; Fix it here opens its fold; Remove and Save take it out', async () => {
    await openCard(page);
    const section = savedSection() ?? {};
    writeSection({ ...section, window: 2, summarizeAt: 5 });
    await page.waitFor('the value left out at the top of the card', `document.querySelector(${JSON.stringify(banner)}) !== null`, 20_000);
    const text = await bannerText();
    assert.match(text, /settings\.yaml holds a value the breaker refuses: it is left out/);
    assert.ok(text.includes('window: 2'), `the value as written: ${text}`);
    assert.ok(text.includes(refusal({ window: 2 })), `the refusal: ${text}`);
    assert.match(text, /The rest of the `repeat-tool-breaker:` section applies/);
    assert.equal((await page.evaluate<string>(`document.querySelector(${JSON.stringify(input('summarizeAt'))}).value`)), '5', 'the rest of the edit applies');
    assert.deepEqual(await headerBadges(), ['1 value of settings.yaml left out']);
    const top = await page.evaluate<number>(`document.querySelector(${JSON.stringify(banner)}).getBoundingClientRect().top - document.querySelector(${JSON.stringify(`${CARD} .rtb-body`)}).getBoundingClientRect().top`);
    assert.ok(top < 40, `at the top of the card (${top} px below its body's top)`);
    await until('the value left out on the terminal', () => (stderrLines().some((line) => /^repeat-tool-breaker: `window` in the `repeat-tool-breaker:` section of \S+settings\.yaml is left out, and the rest of the section applies: `window` must be an integer >= 4 \(got 2\)/.test(line)) ? true : undefined), 10_000);
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    await shot('card-stored-live');
    // Fix it here: the field behind its fold, opened and focused; it shows what applies, and why its own value is left out.
    await page.click(`${banner} [data-rtb-go=window]`);
    await page.waitFor('the focus on window', `document.activeElement?.dataset.rtbInput === 'window'`);
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(input('window'))}).value`), '16', 'what applies');
    const note = await page.evaluate<string>(`document.querySelector(${JSON.stringify(`${fieldRow('window')} [data-rtb-dropped-note]`)}).textContent`);
    assert.equal(note, `Left out of settings.yaml: ${inCardWords(refusal({ window: 2 }), undefined)}`);
    assert.equal(await computed(page, `${fieldRow('window')} [data-rtb-dropped-note]`, 'color'), await errorColour(), 'in the error colour');
    await shot('card-dropped-field', fieldRow('window'));
    // Remove: staged (Unsaved), then Save writes the section without it.
    await page.click(`${banner} [data-rtb-remove=window]`);
    await page.waitFor('the removal staged', `document.querySelector(${JSON.stringify(`${banner} [data-rtb-dropped=window]`)})?.dataset.rtbState === 'removed'`);
    const badges = await headerBadges();
    assert.ok(badges.includes('Unsaved'), `the header's badges: ${JSON.stringify(badges)}`);
    await page.click(`${CARD} [data-rtb=save]`);
    await until('window gone from settings.yaml', () => (savedSection() !== undefined && !('window' in savedSection()!) ? true : undefined), 15_000);
    await page.waitFor('the banner to go', `document.querySelector(${JSON.stringify(banner)}) === null`);
    assert.deepEqual(savedSection(), { ...section, summarizeAt: 5 }, 'the rest of the section as it was');
    await until('accepted again on the terminal', () => (/is accepted again; the breaker follows it/.test(web().output()) ? true : undefined), 10_000);
    await setAllFolds(page, false);
  });

  step('at boot (a misspelt key beside a preset): the namespace and the card stay, the rest of the section applies, preset included, the terminal names the key; Remove clears it', async () => {
    await web().stop();
    // The profile's row back to the shipped defaults for this part (and the README's screenshot of the card).
    writeFileSync(join(HOME, 'profiles', 'web', 'cordis.patch.yml'), `${plainLogRows(HOME)}- id: ${NS}\n  config: {}\n`);
    writeSection({ preset: 'recommended', onlimit: 'deny', limits: { exact: 4 } });
    host = await startWebHost({ home: HOME, cwd: WORKSPACE, modelUrl: model!.url, pnpmStore: join(ROOT, 'pnpm-store'), timeoutMs: 90_000 });
    const line = await until('the value left out on the terminal', () => stderrLines()[0], 20_000);
    assert.ok(line.startsWith(`repeat-tool-breaker: \`onlimit\` in the \`${NS}:\` section of ${join(HOME, 'settings.yaml')} is left out, and the rest of the section applies: `), line);
    assert.ok(line.includes(refusal({ onlimit: 'deny' })), line);
    const described = await web().rpc('settings.describe', {});
    const view = (described.value as { namespaces: { ns: string; user?: unknown; value: { preset: string | null; limits: { exact: number } } }[] }).namespaces.find((n) => n.ns === NS);
    assert.ok(view, 'settings.describe has the namespace');
    assert.deepEqual(view.user, { preset: 'recommended', onlimit: 'deny', limits: { exact: 4 } });
    assert.equal(view.value.limits.exact, 4, 'the rest of the section applies');
    assert.equal(view.value.preset, 'recommended', 'the preset included');
    await reopen();
    await openCard(page);
    await page.waitFor('the value left out at the top of the card', `document.querySelector(${JSON.stringify(banner)}) !== null`, 20_000);
    const text = await bannerText();
    assert.ok(text.includes('onlimit: "deny"'), text);
    assert.ok(text.includes('`onlimit` is not a setting (got "deny"). Did you mean `onLimit`?'), text);
    assert.equal(await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb=stored]`)}) === null`), true, 'the section is not refused whole');
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(input('preset'))}).value`), 'recommended', 'the preset kept');
    assert.equal(await page.evaluate<string>(`document.querySelector(${JSON.stringify(input('limits.exact'))}).value`), '4', 'the cap kept');
    assert.equal(await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(input('stale'))}).checked`), true, 'what the preset turns on is on');
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    await shot('card-stored');
    // In the operator's language: the same banner in Chinese, the refusal in Chinese (YAML's words: it is the file's value).
    const ZH = wordsOf(translator('zh'), 'zh');
    await chooseLanguage(page, SHELL_EN, SHELL_ZH);
    await openCard(page, SHELL_ZH);
    await page.waitFor('the banner in Chinese', `document.querySelector(${JSON.stringify(`${banner} .rtb-stored-title`)})?.textContent === ${JSON.stringify(ZH.dropped.title(1))}`);
    const zh = await bannerText();
    assert.ok(zh.includes(configText(refusalData({ onlimit: 'deny' }), 'zh')), zh);
    assert.ok(zh.includes(ZH.dropped.remove), zh);
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    await shot('card-zh-dropped');
    await chooseLanguage(page, SHELL_ZH, SHELL_EN);
    await openCard(page);
    await page.waitFor('the banner in English', `document.querySelector(${JSON.stringify(`${banner} .rtb-stored-title`)})?.textContent === ${JSON.stringify(COPY.dropped.title(1))}`);
    await page.click(`${banner} [data-rtb-remove=onlimit]`);
    await page.click(`${CARD} [data-rtb=save]`);
    await until('onlimit gone from settings.yaml', () => (savedSection() !== undefined && !('onlimit' in savedSection()!) ? true : undefined), 15_000);
    await page.waitFor('the banner to go', `document.querySelector(${JSON.stringify(banner)}) === null`);
    assert.deepEqual(savedSection(), { preset: 'recommended', limits: { exact: 4 } });
    // Reset the preset and the cap too: the card with the shipped defaults, for the README.
    await page.click(`${fieldRow('preset')} .rtb-reset`);
    await page.click(`${fieldRow('limits.exact')} .rtb-reset`);
    await page.click(`${CARD} [data-rtb=save]`);
    await until('the section empty', () => (Object.keys(savedSection() ?? {}).length === 0 ? true : undefined), 15_000);
    await page.waitFor('the shipped default', `document.querySelector(${JSON.stringify(`${fieldRow('warnAt')} .rtb-note`)}).textContent.endsWith('Default: 7')`);
    // As a person finds it: the page opened afresh, the card opened, nothing staged or just saved.
    await reopen();
    await openCard(page);
    await page.evaluate(`document.querySelector(${JSON.stringify(CARD_HEADER)}).scrollIntoView({ block: 'start' })`);
    await shot('card-defaults-top');
  });
});

describe('the stop (stopAfter, issue 41)', () => {
  /** Opens the session whose conversation shows `text`: every session of the suite is titled as the mock model titles it. */
  const openSessionShowing = async (text: string): Promise<void> => {
    await openSession(page, 'Mock session');
    const rows = await page.evaluate<number>(`[...document.querySelectorAll('[role=treeitem]')].filter((e) => e.textContent.includes('Mock session')).length`);
    for (let at = 0; at < rows; at += 1) {
      await page.evaluate(`[...document.querySelectorAll('[role=treeitem]')].filter((e) => e.textContent.includes('Mock session'))[${at}].setAttribute('data-cdp-row', 'x')`);
      await page.click('[data-cdp-row="x"]');
      await page.evaluate(`document.querySelector('[data-cdp-row]')?.removeAttribute('data-cdp-row')`);
      const shown = await until(`session ${at + 1} of ${rows}`, () => page.evaluate<boolean>(`document.body.innerText.includes(${JSON.stringify(text)})`).then((yes) => (yes ? true : undefined)), 3_000).catch(() => false);
      if (shown === true) return;
    }
    throw new Error(`no session shows ${text}`);
  };

  step('a model that keeps calling at the closed gate: the turn ends after the set number of refusals, and the conversation shows that the loop breaker ended it, and why', async () => {
    const saved = await web().rpc('settings.update', { ns: NS, patch: { onLimit: 'deny', limits: { exact: 4 }, stopAfter: 2 } });
    assert.ok(saved.ok, JSON.stringify(saved));
    // The card has the setting, with the value saved.
    await page.waitFor('stopAfter 2 in the card', `document.querySelector(${JSON.stringify(input('stopAfter'))})?.value === '2'`, 20_000);
    await closeSettings(page);
    const session = await createSession(web(), WORKSPACE);
    await prompt(web(), session, director.prompt('Print the stop marker ten times.', 'stop', [{ name: 'bash', arguments: { command: 'echo rtb-stop' }, times: 10 }]));
    const log = await turnsEnded(HOME, session, 1);
    assert.deepEqual(
      log.steps.map((s) => (s.isError ? (BLOCKED.test(s.text) ? 'blocked' : 'refused') : 'ran')),
      ['ran', 'ran', 'ran', 'blocked', 'blocked'],
      'cap 4: three ran, the 4th and 5th were refused, and the step after the second refusal was rejected: no 6th call',
    );
    const notice = log.notices.filter((n) => n.plugin === NS).at(-1);
    assert.equal(notice?.summary, 'turn ended after 2 refused calls: cmd \u201cecho:echo rtb-stop\u201d');
    await openSessionShowing('echo rtb-stop');
    await page.waitFor('the stop’s notice row', `document.body.innerText.includes('turn ended after 2 refused calls')`, 20_000);
    const text = await pageText(page);
    assert.match(text, /Context injection\s*repeat-tool-breaker\s*turn ended after 2 refused calls: cmd \u201cecho:echo rtb-stop\u201d/, 'a notice row: who ended the turn, after how many refusals, and what');
    await shot('stopped-turn');
    // The terminal that runs `dsh web`: the stopped turn's line in place of its summary.
    const line = await until('the stop’s line on the terminal', () => (web().output().split('--- stderr ---')[1] ?? '').split('\n').find((l) => l.startsWith('repeat-tool-breaker: ') && l.includes('stopped by the loop breaker')), 10_000);
    assert.match(line, /^repeat-tool-breaker: turn 1 stopped by the loop breaker after 2 refused calls of one loop \(stopAfter: 2\): \u201cbash\u201d, cmd \u201cecho:echo rtb-stop\u201d; 1 loop gated, 2 calls refused; the loop ran 3 calls$/);
  });
});
