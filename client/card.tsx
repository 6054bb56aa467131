/**
 * The breaker's card under Settings → Plugins → Plugin configuration: a header
 * that discloses the settings in place, one fieldset per group, and Save /
 * Discard with the reason Save is held back. Every control is a native
 * element, so Tab, Space and the arrow keys work as everywhere else; Enter in
 * a field saves, Escape drops its draft (a second Escape closes the dialog, as
 * it does anywhere in Settings). Its words come with the store's state, in
 * the page's language (copy.ts).
 */
import { Component, useId, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

import { COPY, type Words } from './copy.js';
import type { FieldView, FormView, PresetPreview, Problem, StoredProblem } from './form.js';
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

/** The id of a field's control, so the footer's links can reach it. */
function controlId(idBase: string, path: string): string {
  return `${idBase}-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
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
    'aria-describedby': view.warning === undefined ? noteId : `${noteId} ${warningId}`,
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
        </span>
      </div>
      {fixed}
      {inline ? null : control}
      <p className={view.error === undefined ? 'rtb-note' : 'rtb-note rtb-invalid'} id={noteId} role={view.error === undefined ? undefined : 'alert'}>
        {view.error ?? field.hint}
        <span className="rtb-default"> {defaultNote(view, words)}</span>
      </p>
      {view.warning === undefined ? null : (
        <p className="rtb-warning" id={warningId} data-rtb-warning={field.path}>
          {view.warning}
        </p>
      )}
    </div>
  );
}

/** Why Save is held back, beside it: the fields to fix, each a link to its control. */
function SaveReason(props: { readonly words: Words; readonly id: string; readonly idBase: string; readonly problems: readonly Problem[] }): ReactElement {
  const focus = (path: string): void => {
    const control = document.getElementById(controlId(props.idBase, path));
    control?.scrollIntoView({ block: 'center' });
    control?.focus();
  };
  return (
    <p className="rtb-reason" id={props.id} data-rtb="reason">
      {props.words.needFixing(props.problems.length)}
      {props.problems.map((problem, at) => (
        <span key={problem.path}>
          {at === 0 ? ' ' : ', '}
          <button type="button" className="rtb-link" data-rtb-fix={problem.path} onClick={() => focus(problem.path)}>
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
      {held ? <SaveReason words={words} id={reasonId} idBase={idBase} problems={form.problems} /> : null}
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
          <p className="rtb-status">{words.live}</p>
          {form.groups.map((group) => (
            <fieldset key={group.id} className="rtb-group" data-rtb-group={group.id}>
              <legend className="rtb-legend">{group.title}</legend>
              {group.fields.map((view) => (
                <FieldRow key={view.field.path} words={words} view={view} idBase={idBase} store={store} locked={locked} />
              ))}
              {group.id === 'preset' && form.preset !== undefined ? <PresetList words={words} preview={form.preset} /> : null}
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
