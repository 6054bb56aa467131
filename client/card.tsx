/**
 * The breaker's card under Settings → Plugins → Plugin configuration: a header
 * that discloses the settings in place, one fieldset per group, the everyday
 * settings in view and the rest behind folds (a disclosure button with a
 * one-line summary, as DSH's model rows fold their capacities), and Save /
 * Discard with the reason Save is held back. Every control is a native
 * element, so Tab, Space and the arrow keys work as everywhere else; a fold
 * opens with Enter or Space and its fields follow it in the Tab order; Enter
 * in a field saves, Escape drops its draft (a second Escape closes the dialog,
 * as it does anywhere in Settings). Its words come with the store's state, in
 * the page's language (copy.ts).
 */
import { Component, useId, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

import { COPY, type Words } from './copy.js';
import type { DroppedView, FieldView, FoldView, FormView, PresetPreview, Problem, StoredProblem } from './form.js';
import { defaultNote } from './notes.js';
import type { CardState, CardStore } from './store.js';

/** The card's name in English (the page's language may name it otherwise). */
export const TITLE = COPY.title;

function Chevron(props: { readonly open: boolean }): ReactElement {
  return (
    <svg className={props.open ? 'rtb-chevron rtb-chevron-open' : 'rtb-chevron'} width={14} height={14} viewBox="0 0 14 14" fill="none" aria-hidden={true}>
      <path d="M3.5 5.25 7 8.75l3.5-3.5" stroke="currentColor" strokeWidth={1.4} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A fold's chevron: right while closed, down while open (DSH's model rows draw theirs so). */
function FoldChevron(props: { readonly open: boolean }): ReactElement {
  return (
    <svg className={props.open ? 'rtb-fold-chevron rtb-fold-chevron-open' : 'rtb-fold-chevron'} width={14} height={14} viewBox="0 0 16 16" fill="none" aria-hidden={true}>
      <path d="M6 3.5L10.5 8L6 12.5" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The id of a field's control, so the footer's links can reach it. */
function controlId(idBase: string, path: string): string {
  return `${idBase}-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/** Takes the focus to a field's control, opening the fold it is behind first (it renders on the store's update). */
function reveal(store: CardStore, form: FormView, idBase: string, path: string): void {
  const fold = form.groups.flatMap((group) => group.fields).find((view) => view.field.path === path)?.field.fold;
  if (fold !== undefined) store.setFold(fold, true);
  setTimeout(() => {
    const control = document.getElementById(controlId(idBase, path));
    control?.scrollIntoView({ block: 'center' });
    control?.focus();
  }, 0);
}

/** A fold, as a field row or a fold row renders it: its view, whether it is open, and its fields. */
interface FoldPart {
  readonly view: FoldView;
  readonly open: boolean;
  readonly fields: readonly FieldView[];
}

interface FieldProps {
  readonly words: Words;
  readonly view: FieldView;
  readonly idBase: string;
  readonly store: CardStore;
  readonly locked: boolean;
}

function FieldRow({ words, view, idBase, store, locked }: FieldProps): ReactElement {
  const { field } = view;
  const id = controlId(idBase, field.path);
  const noteId = `${id}-note`;
  const warningId = `${id}-warning`;
  const droppedId = `${id}-dropped`;
  const disabled = locked || view.disabled;
  const edit = (text: string): void => store.edit(field.path, text);
  const keys = (event: { key: string; ctrlKey: boolean; metaKey: boolean; preventDefault(): void; stopPropagation(): void }, multiline: boolean): void => {
    if (event.key === 'Escape' && view.staged) {
      // The first Escape drops the draft; only an Escape with nothing to drop reaches the dialog and closes it.
      event.preventDefault();
      event.stopPropagation();
      store.revert(field.path);
    } else if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void store.save();
    }
  };
  const common = {
    id,
    disabled,
    'aria-describedby': [noteId, view.dropped === undefined ? '' : droppedId, view.warning === undefined ? '' : warningId].filter((part) => part !== '').join(' '),
    'aria-invalid': view.error !== undefined,
    'data-rtb-input': field.path,
  };
  let control: ReactNode;
  const { kind } = field;
  if (kind.type === 'choice') {
    control = (
      <select {...common} className="rtb-input rtb-short rtb-select" value={view.text} onChange={(e) => edit(e.target.value)} onKeyDown={(e) => keys(e, false)}>
        {kind.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (kind.type === 'flag' || kind.type === 'track') {
    const on = kind.type === 'flag' ? 'true' : 'on';
    const offText = kind.type === 'flag' ? 'false' : 'off';
    control = (
      <input
        {...common}
        type="checkbox"
        className="rtb-check"
        checked={view.text === on}
        onChange={(e) => edit(e.target.checked ? on : offText)}
        onKeyDown={(e) => keys(e, false)}
      />
    );
  } else if (kind.type === 'lists' || kind.type === 'aliases') {
    control = (
      <textarea
        {...common}
        className={view.error === undefined ? 'rtb-input rtb-area' : 'rtb-input rtb-area rtb-input-invalid'}
        rows={Math.max(2, view.text.split('\n').length + 1)}
        spellCheck={false}
        value={view.text}
        onChange={(e) => edit(e.target.value)}
        onKeyDown={(e) => keys(e, true)}
      />
    );
  } else {
    control = (
      <input
        {...common}
        type="text"
        className={`rtb-input${kind.type === 'number' ? ' rtb-short' : ''}${view.error === undefined ? '' : ' rtb-input-invalid'}`}
        inputMode={kind.type === 'number' && kind.nullWord === undefined ? 'numeric' : 'text'}
        spellCheck={false}
        autoComplete="off"
        value={view.text}
        placeholder={kind.type === 'list' ? words.listPlaceholder : ''}
        onChange={(e) => edit(e.target.value)}
        onKeyDown={(e) => keys(e, false)}
      />
    );
  }
  const inline = kind.type === 'flag' || kind.type === 'track';
  const fixed =
    view.fixed.length === 0 ? null : (
      <div className="rtb-fixed" data-rtb-fixed={field.path}>
        <p className="rtb-fixed-title">{words.fixedTitle}</p>
        <ul className="rtb-fixed-list">
          {view.fixed.map((line) => (
            <li key={line}>
              <code>{line}</code>
            </li>
          ))}
        </ul>
      </div>
    );
  return (
    <div className={view.disabled ? 'rtb-field rtb-field-off' : 'rtb-field'} data-rtb-field={field.path}>
      <div className="rtb-head">
        {inline ? control : null}
        <label className="rtb-label" htmlFor={id}>
          {field.label}
          {field.key === undefined ? null : <code className="rtb-key">{field.key}</code>}
        </label>
        <span className="rtb-badges">
          {view.staged ? <span className="rtb-badge-muted">{words.unsaved}</span> : null}
          {view.overridden ? <span className="rtb-badge">{words.overridden}</span> : null}
          {view.resettable ? (
            <button type="button" className="rtb-reset" disabled={locked} aria-label={words.resetLabel(field.label, view.defaultText)} onClick={() => store.reset(field.path)}>
              {words.reset}
            </button>
          ) : null}
          {view.removable ? (
            <button type="button" className="rtb-reset" data-rtb-remove={field.path} disabled={locked} aria-label={words.dropped.removeLabel(field.key)} onClick={() => store.reset(field.path)}>
              {words.dropped.remove}
            </button>
          ) : null}
        </span>
      </div>
      {fixed}
      {inline ? null : control}
      <p className={view.error === undefined ? 'rtb-note' : 'rtb-note rtb-invalid'} id={noteId} role={view.error === undefined ? undefined : 'alert'}>
        {view.error ?? field.hint}
        <span className="rtb-default"> {defaultNote(view, words)}</span>
      </p>
      {view.dropped === undefined ? null : (
        <p className="rtb-note rtb-invalid" id={droppedId} data-rtb-dropped-note={field.path}>
          {view.dropped}
        </p>
      )}
      {view.warning === undefined ? null : (
        <p className="rtb-warning" id={warningId} data-rtb-warning={field.path}>
          {view.warning}
        </p>
      )}
    </div>
  );
}

/** What a closed fold's fields hold, beside its toggle: a problem (in the error colour), a draft, an override. */
function FoldBadges(props: { readonly words: Words; readonly fold: FoldView }): ReactElement {
  const { words, fold } = props;
  return (
    <span className="rtb-badges">
      {fold.problem ? <span className="rtb-badge rtb-badge-problem">{words.fold.problem}</span> : null}
      {fold.staged ? <span className="rtb-badge-muted">{words.unsaved}</span> : null}
      {fold.overridden ? <span className="rtb-badge">{words.overridden}</span> : null}
    </span>
  );
}

interface FoldProps {
  readonly words: Words;
  readonly fold: FoldPart;
  readonly idBase: string;
  readonly store: CardStore;
  readonly locked: boolean;
}

function FoldBody(props: FoldProps & { readonly id: string }): ReactElement {
  const { words, fold, idBase, store, locked } = props;
  return (
    <div className="rtb-fold-body" id={props.id} data-rtb-fold-body={fold.view.id}>
      {fold.fields.map((view) => (
        <FieldRow key={view.field.path} words={words} view={view} idBase={idBase} store={store} locked={locked} />
      ))}
    </div>
  );
}

/**
 * A fold: its toggle, its badges, then its fields while open. A fold of its own
 * (More caps, What is counted …) has its title on the toggle and a one-line
 * summary under it; a track's fold, right under the track's switch (`under`:
 * the switch's label, which the toggle's name says), sums its numbers up on
 * the toggle itself.
 */
function Fold(props: FoldProps & { readonly under?: string }): ReactElement {
  const { words, fold, idBase, store, under } = props;
  const id = controlId(idBase, `fold-${fold.view.id}`);
  const tracks = under !== undefined;
  return (
    <div className={tracks ? 'rtb-track-fold' : 'rtb-fold'} data-rtb-fold={tracks ? undefined : fold.view.id} data-rtb-track-fold={tracks ? fold.view.id : undefined}>
      <div className="rtb-head">
        <button
          type="button"
          className={tracks ? 'rtb-fold-toggle rtb-fold-toggle-under' : 'rtb-fold-toggle'}
          id={id}
          aria-expanded={fold.open}
          aria-controls={`${id}-body`}
          aria-label={tracks ? words.fold.details(under) : undefined}
          aria-describedby={`${id}-summary`}
          data-rtb-fold-toggle={fold.view.id}
          onClick={() => store.setFold(fold.view.id)}
        >
          <FoldChevron open={fold.open} />
          {tracks ? (
            <span className="rtb-fold-summary" id={`${id}-summary`}>
              {fold.view.summary}
            </span>
          ) : (
            <span className="rtb-fold-title">{fold.view.title}</span>
          )}
        </button>
        <FoldBadges words={words} fold={fold.view} />
      </div>
      {tracks ? null : (
        <p className="rtb-fold-summary" id={`${id}-summary`}>
          {fold.view.summary}
        </p>
      )}
      {fold.open ? <FoldBody {...props} id={`${id}-body`} /> : null}
    </div>
  );
}

/** A group's rows: each field in view, a fold of its own where its first field comes, a track's fold inside its switch's row. */
function GroupRows(props: {
  readonly words: Words;
  readonly group: FormView['groups'][number];
  readonly open: ReadonlySet<string>;
  readonly idBase: string;
  readonly store: CardStore;
  readonly locked: boolean;
  /** What follows a field's row (the preset's list after the preset). */
  readonly after: (path: string) => ReactNode;
}): ReactElement {
  const { words, group, open, idBase, store, locked } = props;
  const part = (fold: FoldView): FoldPart => ({ view: fold, open: open.has(fold.id), fields: group.fields.filter((view) => view.field.fold === fold.id) });
  const under = new Map(group.folds.flatMap((fold) => (fold.under === undefined ? [] : [[fold.under, fold] as const])));
  const placed = new Set<string>();
  const rows: ReactNode[] = [];
  for (const view of group.fields) {
    const foldId = view.field.fold;
    if (foldId === undefined) {
      const own = under.get(view.field.path);
      rows.push(<FieldRow key={view.field.path} words={words} view={view} idBase={idBase} store={store} locked={locked} />);
      // A track's numbers, folded right under its switch.
      if (own !== undefined) rows.push(<Fold key={`fold-${own.id}`} words={words} fold={part(own)} under={view.field.label} idBase={idBase} store={store} locked={locked} />);
      rows.push(props.after(view.field.path));
      continue;
    }
    const fold = group.folds.find((f) => f.id === foldId);
    if (fold === undefined || fold.under !== undefined || placed.has(foldId)) continue;
    placed.add(foldId);
    rows.push(<Fold key={`fold-${foldId}`} words={words} fold={part(fold)} idBase={idBase} store={store} locked={locked} />);
  }
  return <>{rows}</>;
}

/** Why Save is held back, beside it: the fields to fix, each a link to its control (its fold opened). */
function SaveReason(props: { readonly words: Words; readonly id: string; readonly problems: readonly Problem[]; readonly go: (path: string) => void }): ReactElement {
  return (
    <p className="rtb-reason" id={props.id} data-rtb="reason">
      {props.words.needFixing(props.problems.length)}
      {props.problems.map((problem, at) => (
        <span key={problem.path}>
          {at === 0 ? ' ' : ', '}
          <button type="button" className="rtb-link" data-rtb-fix={problem.path} onClick={() => props.go(problem.path)}>
            {problem.label}
          </button>
        </span>
      ))}
    </p>
  );
}

function Footer(props: { readonly state: CardState; readonly form: FormView; readonly store: CardStore; readonly idBase: string; readonly locked: boolean }): ReactElement {
  const { state, form, store, idBase, locked } = props;
  const { words } = state;
  const reasonId = `${idBase}-reason`;
  const held = form.problems.length > 0 && !state.saving;
  const storedHolds = !held && form.invalid && form.stored !== undefined && form.dirty;
  return (
    // Sticky: Save and Discard stay in view however far down the card is scrolled.
    <div className="rtb-footer" data-rtb="footer">
      {form.error === undefined ? null : (
        <p className="rtb-failed" role="alert">
          {form.error}
        </p>
      )}
      {state.failed ? (
        <p className="rtb-failed" role="status">
          {words.hostRefused}
        </p>
      ) : null}
      {held ? <SaveReason words={words} id={reasonId} problems={form.problems} go={(path) => reveal(store, form, idBase, path)} /> : null}
      {storedHolds ? (
        <p className="rtb-reason" id={reasonId} data-rtb="reason">
          {words.stored.holdsSave}
        </p>
      ) : null}
      {/* Always there, so a screen reader hears "Saved." when it appears. */}
      <p className="rtb-saved" role="status" data-rtb="saved">
        {state.saved ? words.saved : ''}
      </p>
      <button type="button" className="rtb-discard" data-rtb="discard" disabled={!form.dirty || state.saving} onClick={() => store.discard()}>
        {words.discard}
      </button>
      <button
        type="button"
        className="rtb-save"
        data-rtb="save"
        disabled={form.writes.length === 0 || form.invalid || locked}
        aria-describedby={held || storedHolds ? reasonId : undefined}
        onClick={() => void store.save()}
      >
        {state.saving ? words.saving : words.save}
      </button>
    </div>
  );
}

/** At the top of the card: settings.yaml holds a value the breaker refuses, what runs meanwhile, and the ways to fix it. */
function StoredBanner(props: { readonly words: Words; readonly stored: StoredProblem; readonly store: CardStore; readonly locked: boolean }): ReactElement {
  const { words, stored, store, locked } = props;
  return (
    <div className="rtb-stored" role="alert" data-rtb="stored">
      <p className="rtb-stored-title">{words.stored.title}</p>
      <p className="rtb-stored-message">{stored.message}</p>
      <p className="rtb-stored-text">{words.stored.meanwhile(stored.meanwhile)}</p>
      <p className="rtb-stored-text">{words.stored.fix}</p>
      <div className="rtb-stored-actions">
        {stored.key === undefined ? null : (
          <button type="button" className="rtb-discard" data-rtb="stored-reset-key" disabled={locked} onClick={() => void store.fixStored('key')}>
            {words.stored.resetKey(stored.key)}
          </button>
        )}
        <button type="button" className="rtb-discard" data-rtb="stored-reset-section" disabled={locked} onClick={() => void store.fixStored('section')}>
          {words.stored.resetSection}
        </button>
      </div>
    </div>
  );
}

/** At the top of the card: the values of settings.yaml the breaker leaves out, why, and how to remove or fix each. */
function DroppedBanner(props: { readonly words: Words; readonly dropped: readonly DroppedView[]; readonly store: CardStore; readonly locked: boolean; readonly go: (path: string) => void }): ReactElement {
  const { words, dropped, store, locked, go } = props;
  return (
    <div className="rtb-stored" role="alert" data-rtb="dropped">
      <p className="rtb-stored-title">{words.dropped.title(dropped.length)}</p>
      <p className="rtb-stored-text">{words.dropped.rest}</p>
      <ul className="rtb-dropped-list">
        {dropped.map((drop) => (
          <li key={drop.path} className="rtb-dropped" data-rtb-dropped={drop.path} data-rtb-state={drop.state}>
            <code className="rtb-dropped-value">
              {drop.path}: {drop.written}
            </code>
            <span className="rtb-stored-message">{drop.message}</span>
            <span className="rtb-dropped-actions">
              {drop.state === 'kept' ? (
                <button type="button" className="rtb-discard" data-rtb-remove={drop.path} disabled={locked} aria-label={words.dropped.removeLabel(drop.path)} onClick={() => store.reset(drop.path)}>
                  {words.dropped.remove}
                </button>
              ) : (
                <span className="rtb-badge-muted">{drop.state === 'removed' ? words.dropped.removing : words.dropped.replacing}</span>
              )}
              {drop.state === 'removed' ? (
                <button type="button" className="rtb-link" data-rtb-keep={drop.path} disabled={locked} aria-label={words.dropped.keepLabel(drop.path)} onClick={() => store.revert(drop.path)}>
                  {words.dropped.keep}
                </button>
              ) : null}
              {drop.state === 'kept' && drop.field !== undefined ? (
                <button type="button" className="rtb-link" data-rtb-go={drop.field} aria-label={words.dropped.goToLabel(drop.fieldLabel ?? drop.field)} onClick={() => go(drop.field!)}>
                  {words.dropped.goTo}
                </button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <p className="rtb-stored-text">{words.dropped.fix}</p>
    </div>
  );
}

/** Under the preset: each setting it sets, read from its parts, and where something else applies instead. */
function PresetList(props: { readonly words: Words; readonly preview: PresetPreview }): ReactElement {
  const { words, preview } = props;
  return (
    <div className="rtb-preset" data-rtb="preset-preview" data-rtb-change={preview.change}>
      <p className="rtb-note">{words.preset.heading(preview.change, preview.name)}</p>
      <ul className="rtb-preset-list">
        {preview.lines.map((line) => (
          <li key={line.path} data-rtb-preset-line={line.path}>
            {line.label} <code className="rtb-key">{line.path}</code>
            {': '}
            {line.instead === undefined ? line.value : preview.change === 'removes' ? words.preset.back(line.value, line.instead) : words.preset.overridden(line.value, line.instead)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The card itself; it renders nothing while the host does not serve the namespace. */
export function BreakerCard(props: { readonly store: CardStore }): ReactElement | null {
  const { store } = props;
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // The Settings dialog unmounts the card when its tab changes: the store remembers whether it was open.
  const [open, setOpen] = useState(store.isExpanded());
  const idBase = `rtb${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  if (!state.ready) return null;
  const { form, words } = state;
  const locked = !state.writable || state.saving;
  const toggle = (): void => {
    store.setExpanded(!open);
    setOpen(!open);
  };
  return (
    <li className={open ? 'rtb-card rtb-card-open' : 'rtb-card'} data-rtb-card="repeat-tool-breaker" lang={words.locale === 'zh' ? 'zh-CN' : 'en'}>
      <button type="button" className="rtb-header" aria-expanded={open} aria-label={words.header(open, words.title)} aria-controls={`${idBase}-body`} onClick={toggle}>
        <span className="rtb-head-text">
          <span className="rtb-name">{words.title}</span>
          <span className="rtb-description">{words.description}</span>
        </span>
        {form.stored === undefined ? null : <span className="rtb-pending rtb-pending-refused">{words.stored.badge}</span>}
        {form.dropped.length === 0 ? null : <span className="rtb-pending rtb-pending-refused">{words.dropped.badge(form.dropped.length)}</span>}
        {form.dirty ? <span className="rtb-pending">{words.unsaved}</span> : null}
        <Chevron open={open} />
      </button>
      {open ? (
        <div className="rtb-body" id={`${idBase}-body`}>
          {state.writable ? null : (
            <p className="rtb-status" role="status">
              {words.readOnly}
            </p>
          )}
          {form.stored === undefined ? null : <StoredBanner words={words} stored={form.stored} store={store} locked={locked} />}
          {form.dropped.length === 0 ? null : <DroppedBanner words={words} dropped={form.dropped} store={store} locked={locked} go={(path) => reveal(store, form, idBase, path)} />}
          <p className="rtb-status">{words.live}</p>
          {form.groups.map((group) => (
            <fieldset key={group.id} className="rtb-group" data-rtb-group={group.id}>
              <legend className="rtb-legend">{group.title}</legend>
              <GroupRows
                words={words}
                group={group}
                open={state.folds}
                idBase={idBase}
                store={store}
                locked={locked}
                after={(path) => (path === 'preset' && form.preset !== undefined ? <PresetList key="preset-list" words={words} preview={form.preset} /> : null)}
              />
            </fieldset>
          ))}
          <Footer state={state} form={form} store={store} idBase={idBase} locked={locked} />
        </div>
      ) : null}
    </li>
  );
}

/** A render failure stays inside the card: React would otherwise unmount the whole settings dialog. */
export class CardBoundary extends Component<{ readonly children: ReactNode; readonly words?: () => Words }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const words = this.props.words?.() ?? COPY;
    return (
      <li className="rtb-card" data-rtb-card="repeat-tool-breaker">
        <p className="rtb-failed rtb-pad">{words.renderFailed(words.title)}</p>
      </li>
    );
  }
}
