/**
 * What a person does in DSH 0.1.0-rc.8's web UI, as steps over the DevTools
 * client: the first-run screens, the Settings dialog and the breaker's card,
 * a session in the sidebar, the approval panel. Selectors are the shell's
 * visible words and roles (its CSS class names are hashed per build).
 */
import { until, type Page } from './cdp.js';

/** The shell's own words the steps click and read, in the UI's language (DSH rc.8's en and zh dictionaries). */
export interface ShellWords {
  readonly settings: string;
  readonly plugins: string;
  readonly pluginConfiguration: string;
  readonly general: string;
  readonly close: string;
  readonly waiting: string;
  readonly reject: string;
  readonly allowOnce: string;
  /** The sidebar's folder of sessions in no group. */
  readonly ungrouped: string;
  /** The Language row's name for this language (its menu item and its selector's label). */
  readonly language: string;
}

export const SHELL_EN: ShellWords = {
  settings: 'Settings',
  plugins: 'Plugins',
  pluginConfiguration: 'Plugin configuration',
  general: 'General',
  close: 'Close',
  waiting: 'Waiting for approval',
  reject: 'Reject',
  allowOnce: 'Allow once',
  ungrouped: 'Ungrouped',
  language: 'English',
};

export const SHELL_ZH: ShellWords = {
  settings: '设置',
  plugins: '插件',
  pluginConfiguration: '插件配置',
  general: '通用设置',
  close: '关闭',
  waiting: '等待审批',
  reject: '拒绝',
  allowOnce: '允许一次',
  ungrouped: '未分组',
  language: '中文',
};

/**
 * The first screens of a fresh DSH home: the testing notice, which a fresh
 * home always shows (Continue), then the API-key dialog, which shows only
 * when no key is configured (the suite sets one; Configure later otherwise).
 */
export async function passFirstScreens(page: Page): Promise<void> {
  await page.clickText('button', 'Continue', 60_000);
  await page.waitFor('the testing notice to close', `![...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Continue')`);
  await dismissKeyDialog(page);
}

/** Clicks Configure later if the API-key dialog is up. */
export async function dismissKeyDialog(page: Page): Promise<void> {
  const shown = await page.evaluate<boolean>(`[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Configure later')`);
  if (shown) await page.clickText('button', 'Configure later');
}

export const CARD = '[data-rtb-card]';
export const CARD_HEADER = `${CARD} > button`;

export function input(path: string): string {
  return `${CARD} [data-rtb-input=${JSON.stringify(path)}]`;
}

export function fieldRow(path: string): string {
  return `${CARD} [data-rtb-field=${JSON.stringify(path)}]`;
}

/** A fold's toggle (`caps`, `counted`, a track's key …): a button with `aria-expanded`. */
export function foldToggle(id: string): string {
  return `${CARD} [data-rtb-fold-toggle=${JSON.stringify(id)}]`;
}

/** Opens a fold of the open card (with the mouse, as a person does), until its fields show. */
export async function openFold(page: Page, id: string): Promise<void> {
  const toggle = foldToggle(id);
  if ((await page.evaluate<string | null>(`document.querySelector(${JSON.stringify(toggle)}).getAttribute('aria-expanded')`)) !== 'true') await page.click(toggle);
  await page.waitFor(`the ${id} fold open`, `document.querySelector(${JSON.stringify(`${CARD} [data-rtb-fold-body=${JSON.stringify(id)}]`)}) !== null`);
}

/** Every fold of the open card opened (or closed), one click each. */
export async function setAllFolds(page: Page, open: boolean): Promise<void> {
  const ids = await page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(`${CARD} [data-rtb-fold-toggle]`)})].filter((b) => b.getAttribute('aria-expanded') !== ${JSON.stringify(String(open))}).map((b) => b.dataset.rtbFoldToggle)`);
  for (const id of ids) {
    await page.click(foldToggle(id));
    await page.waitFor(`the ${id} fold ${open ? 'open' : 'closed'}`, `document.querySelector(${JSON.stringify(foldToggle(id))}).getAttribute('aria-expanded') === ${JSON.stringify(String(open))}`);
  }
}

/** Settings → Plugins → Plugin configuration, until the breaker's card (open or not) is there. */
export async function showCard(page: Page, ui: ShellWords = SHELL_EN): Promise<void> {
  await dismissKeyDialog(page);
  const open = await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(CARD)}) !== null`);
  if (!open) {
    const dialog = await page.evaluate<boolean>(`[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === ${JSON.stringify(ui.plugins)})`);
    if (!dialog) await page.clickText('button', ui.settings);
    await page.clickText('button', ui.plugins);
    await page.clickText('[role=tab]', ui.pluginConfiguration);
  }
  await page.waitFor('the breaker card', `document.querySelector(${JSON.stringify(CARD_HEADER)}) !== null`, 20_000);
}

export function isExpanded(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`document.querySelector(${JSON.stringify(CARD_HEADER)}).getAttribute('aria-expanded') === 'true'`);
}

/** Settings → Plugins (the Plugin configuration tab is the first), with the breaker's card expanded. */
export async function openCard(page: Page, ui: ShellWords = SHELL_EN): Promise<void> {
  await showCard(page, ui);
  if (!(await isExpanded(page))) await page.click(CARD_HEADER);
  await page.waitFor('the card body', `document.querySelector(${JSON.stringify(`${CARD} [data-rtb-field]`)}) !== null`);
}

export async function closeSettings(page: Page, ui: ShellWords = SHELL_EN): Promise<void> {
  const plugins = JSON.stringify(ui.plugins);
  const open = await page.evaluate<boolean>(`[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === ${plugins})`);
  if (open) await page.clickText('button', ui.close);
  await page.waitFor('the Settings dialog to close', `![...document.querySelectorAll('button')].some((b) => b.textContent.trim() === ${plugins})`);
}

/**
 * General → Language, as a person switches it: the row's selector (labelled
 * with the language now shown, `from`), then the other language in its menu.
 * DSH stores the choice as `locale.preference` and fires `locale/change`.
 */
export async function chooseLanguage(page: Page, from: ShellWords, to: ShellWords): Promise<void> {
  const dialog = await page.evaluate<boolean>(`[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === ${JSON.stringify(from.general)})`);
  if (!dialog) await page.clickText('button', from.settings);
  await page.clickText('button', from.general);
  await page.clickText('button[aria-haspopup=menu]', from.language);
  await page.clickText('[role^=menuitem], [role=option], [role=menu] li, [role=menu] button', to.language);
  await page.waitFor(`the shell in ${to.language}`, `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === ${JSON.stringify(to.general)})`);
}

/**
 * General → Appearance: `Light` or `Dark`, then waits until the shell shows it
 * and the host has stored it (`stored` reads `ui-theme.preference` from
 * settings.yaml). DSH's ThemePresenter (`@deepseek-ai/dsh-client-ui-layout`)
 * sets the root's `color-scheme`, the body's `data-ds-dark-theme` and the
 * theme's tokens in one synchronous pass, so once the first two say the theme,
 * the tokens are the theme's too. But ThemeRuntime also adopts whatever the
 * settings mirror holds: a settings answer that left the host before the
 * choice was stored puts the old theme back, and a choice queued behind an
 * earlier one can be lost that way. So the choice is made again while the page
 * does not show it, as a person would click again, until the host holds it;
 * after that a stale answer can only show the old theme for a moment, and a
 * reading that depends on the theme checks it in the same pass.
 */
export async function chooseTheme(page: Page, theme: 'Light' | 'Dark', stored: () => unknown): Promise<void> {
  const dialog = await page.evaluate<boolean>(`[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'General')`);
  if (!dialog) await page.clickText('button', 'Settings');
  await page.clickText('button', 'General');
  await page.clickText('button', theme);
  const dark = theme === 'Dark';
  const shown = `document.documentElement.style.colorScheme === ${JSON.stringify(dark ? 'dark' : 'light')} && document.body.hasAttribute('data-ds-dark-theme') === ${dark}`;
  await until(
    `the ${theme} theme on the page (color-scheme ${dark ? 'dark' : 'light'}) and in settings.yaml`,
    async () => {
      if (!(await page.evaluate<boolean>(shown))) {
        await page.clickText('button', theme);
        return false;
      }
      return stored() === theme.toLowerCase();
    },
    15_000,
  );
}

/**
 * The accessible name Chromium computes for the first element matching
 * `selector` (what a screen reader announces), read from its accessibility tree.
 */
export async function accessibleName(page: Page, selector: string): Promise<string> {
  const { root } = (await page.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
  const { nodeId } = (await page.send('DOM.querySelector', { nodeId: root.nodeId, selector })) as { nodeId: number };
  if (nodeId === 0) throw new Error(`no element ${selector}`);
  const { nodes } = (await page.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false })) as { nodes: { name?: { value?: unknown } }[] };
  return String(nodes[0]?.name?.value ?? '');
}

/**
 * Page-side source of a function that resolves a CSS colour value (such as
 * `var(--dsw-alias-state-error-primary)`) where the card sits, through a probe
 * element: for readings that must be taken in one pass with others.
 */
export const RESOLVE_COLOUR = `((value) => {
  const probe = document.createElement('span');
  probe.style.color = value;
  document.querySelector(${JSON.stringify(CARD)}).appendChild(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
})`;

/** What a CSS colour value resolves to where the card sits now (`rgb(…)`). */
export function resolvedColour(page: Page, value: string): Promise<string> {
  return page.evaluate(`${RESOLVE_COLOUR}(${JSON.stringify(value)})`);
}

/** A custom property's value where the card sits (`''` when the shell does not define it). */
export function cssVariable(page: Page, name: string): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(CARD)})).getPropertyValue(${JSON.stringify(name)}).trim()`);
}

/** A computed style property of the first element matching `selector`. */
export function computed(page: Page, selector: string, property: string): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).getPropertyValue(${JSON.stringify(property)})`);
}

/** The value each of the card's controls holds, by config path. */
export function controlValues(page: Page): Promise<Record<string, string>> {
  return page.evaluate(`Object.fromEntries([...document.querySelectorAll(${JSON.stringify(`${CARD} [data-rtb-input]`)})]
    .map((el) => [el.dataset.rtbInput, el.type === 'checkbox' ? String(el.checked) : el.value]))`);
}

/** A field's note (its hint or its error, then "Default: …"), its badges and whether it is marked invalid. */
export function fieldState(
  page: Page,
  path: string,
): Promise<{ note: string; warning: string | null; unsaved: boolean; overridden: boolean; reset: boolean; invalid: boolean; disabled: boolean }> {
  return page.evaluate(`(() => {
    const row = document.querySelector(${JSON.stringify(fieldRow(path))});
    const control = row.querySelector('[data-rtb-input]');
    return {
      note: row.querySelector('.rtb-note').textContent,
      warning: row.querySelector('[data-rtb-warning]')?.textContent ?? null,
      unsaved: [...row.querySelectorAll('.rtb-badge-muted')].some((b) => b.textContent === 'Unsaved'),
      overridden: [...row.querySelectorAll('.rtb-badge')].some((b) => b.textContent === 'Overridden'),
      reset: row.querySelector('.rtb-reset') !== null,
      invalid: control.getAttribute('aria-invalid') === 'true',
      disabled: control.disabled,
    };
  })()`);
}

export function buttonDisabled(page: Page, which: 'save' | 'discard'): Promise<boolean> {
  return page.evaluate(`document.querySelector(${JSON.stringify(`${CARD} [data-rtb=${which}]`)}).disabled`);
}

/** Opens a session listed under the sidebar's Ungrouped folder, by its title. */
export async function openSession(page: Page, title: string, ui: ShellWords = SHELL_EN): Promise<void> {
  await dismissKeyDialog(page);
  const folder = JSON.stringify(ui.ungrouped);
  await page.waitFor(`the ${ui.ungrouped} folder`, `[...document.querySelectorAll('[role=treeitem]')].some((e) => e.textContent.trim() === ${folder})`, 20_000);
  const expanded = await page.evaluate<string | null>(
    `[...document.querySelectorAll('[role=treeitem]')].find((e) => e.textContent.trim() === ${folder}).getAttribute('aria-expanded')`,
  );
  if (expanded !== 'true') await page.clickText('[role=treeitem]', ui.ungrouped);
  const mark = await page.waitFor<string>(
    `a session titled ${title}`,
    `(() => {
      const row = [...document.querySelectorAll('[role=treeitem]')].find((e) => e.textContent.includes(${JSON.stringify(title)}) && e.textContent.trim() !== ${folder});
      if (!row) return false;
      row.setAttribute('data-cdp-session', 'open');
      return '[data-cdp-session="open"]';
    })()`,
    20_000,
  );
  await page.click(mark);
  await page.evaluate(`document.querySelector('[data-cdp-session]')?.removeAttribute('data-cdp-session')`);
}

/** The normalised text of the amber approval panel, once it is shown. */
export function approvalPanel(page: Page, timeoutMs = 30_000, ui: ShellWords = SHELL_EN): Promise<string> {
  return page.waitFor(
    `the approval panel (${ui.waiting}, ${ui.reject}, ${ui.allowOnce})`,
    `(() => {
      const buttons = [...document.querySelectorAll('button')];
      const reject = buttons.find((b) => b.textContent.trim() === ${JSON.stringify(ui.reject)});
      if (!reject || !buttons.some((b) => b.textContent.trim() === ${JSON.stringify(ui.allowOnce)})) return false;
      let panel = reject.parentElement;
      while (panel && !panel.textContent.includes(${JSON.stringify(ui.waiting)})) panel = panel.parentElement;
      return panel ? panel.innerText.replace(/\\s+/g, ' ').trim() : false;
    })()`,
    timeoutMs,
  );
}

/** The panel's headline alone (the plugin's reason as rendered), without DSH's command box under it. */
export function approvalHeadline(page: Page, ui: ShellWords = SHELL_EN): Promise<string> {
  return page.evaluate(`(() => {
    const reject = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === ${JSON.stringify(ui.reject)});
    let panel = reject.parentElement;
    while (panel && !panel.textContent.includes(${JSON.stringify(ui.waiting)})) panel = panel.parentElement;
    const headline = panel.querySelector('[class$="_headline"]');
    return headline === null ? '' : headline.textContent;
  })()`);
}

/** The `selector` of the approval panel, marked for a screenshot. */
export async function markApprovalPanel(page: Page, ui: ShellWords = SHELL_EN): Promise<string> {
  await page.evaluate(`(() => {
    const reject = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === ${JSON.stringify(ui.reject)});
    let panel = reject.parentElement;
    while (panel && !panel.textContent.includes(${JSON.stringify(ui.waiting)})) panel = panel.parentElement;
    panel.setAttribute('data-cdp-panel', 'approval');
  })()`);
  return '[data-cdp-panel="approval"]';
}

/** The whole visible text of the page, whitespace collapsed. */
export function pageText(page: Page): Promise<string> {
  return page.evaluate(`document.body.innerText.replace(/\\s+/g, ' ')`);
}

/**
 * The characters of each conversation row containing `needle` that are
 * actually visible on its one line (the rest is cut off by the row's
 * ellipsis): measured with a DOM Range, character by character from the end.
 */
export function visibleRowTexts(page: Page, needle: string): Promise<string[]> {
  return page.evaluate(`(() => {
    const rows = [...document.querySelectorAll('*')].filter((el) => el.childElementCount === 0 && (el.textContent ?? '').includes(${JSON.stringify(needle)}));
    return rows.map((el) => {
      const text = el.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return el.textContent;
      const right = el.getBoundingClientRect().right;
      const range = document.createRange();
      let end = text.length;
      for (; end > 0; end -= 1) {
        range.setStart(text, 0);
        range.setEnd(text, end);
        if (range.getBoundingClientRect().right <= right + 0.5) break;
      }
      // The ellipsis takes the place of the last visible character or so.
      return text.textContent.slice(0, Math.max(0, end - 1));
    });
  })()`);
}
