/**
 * The breaker's card under Settings → Plugins → Plugin configuration: a header
 * that discloses the settings in place, one fieldset per group, and Save /
 * Discard. Every control is a native element, so Tab, Space and the arrow keys
 * work as everywhere else; Enter in a field saves, Escape drops its draft
 * (a second Escape closes the dialog, as it does anywhere in Settings).
 */
import { Component, useId, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

import type { FieldView } from './form.js';
import type { CardStore } from './store.js';

export const TITLE = 'Repeat-tool breaker';
const DESCRIPTION = 'Stops an agent that repeats the same tool call: advisories first, then a gate.';

function Chevron(props: { readonly open: boolean }): ReactElement {
  return (
    <svg className={props.open ? 'rtb-chevron rtb-chevron-open' : 'rtb-chevron'} width={14} height={14} viewBox="0 0 14 14" fill="none" aria-hidden={true}>
      <path d="M3.5 5.25 7 8.75l3.5-3.5" stroke="currentColor" strokeWidth={1.4} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

interface FieldProps {
  readonly view: FieldView;
  readonly idBase: string;
  readonly store: CardStore;
  readonly locked: boolean;
}

function FieldRow({ view, idBase, store, locked }: FieldProps): ReactElement {
  const { field } = view;
  const id = `${idBase}-${field.path.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const noteId = `${id}-note`;
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
    'aria-describedby': noteId,
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
        placeholder={kind.type === 'list' ? 'none' : ''}
        onChange={(e) => edit(e.target.value)}
        onKeyDown={(e) => keys(e, false)}
      />
    );
  }
  const inline = kind.type === 'flag' || kind.type === 'track';
  return (
    <div className={view.disabled ? 'rtb-field rtb-field-off' : 'rtb-field'} data-rtb-field={field.path}>
      <div className="rtb-head">
        {inline ? control : null}
        <label className="rtb-label" htmlFor={id}>
          {field.label}
        </label>
        <span className="rtb-badges">
          {view.staged ? <span className="rtb-badge-muted">Unsaved</span> : null}
          {view.overridden ? <span className="rtb-badge">Overridden</span> : null}
          {view.overridden ? (
            <button type="button" className="rtb-reset" disabled={locked} aria-label={`Reset ${field.label} to default (${view.defaultText})`} onClick={() => store.reset(field.path)}>
              Reset to default
            </button>
          ) : null}
        </span>
      </div>
      {inline ? null : control}
      <p className={view.error === undefined ? 'rtb-note' : 'rtb-note rtb-invalid'} id={noteId} role={view.error === undefined ? undefined : 'alert'}>
        {view.error ?? field.hint}
        <span className="rtb-default"> Default: {view.defaultText === '' ? 'none' : view.defaultText.replaceAll('\n', '; ')}</span>
      </p>
    </div>
  );
}

/** The card itself; it renders nothing while the host does not serve the namespace. */
export function BreakerCard(props: { readonly store: CardStore }): ReactElement | null {
  const { store } = props;
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [open, setOpen] = useState(false);
  const idBase = `rtb${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  if (!state.ready) return null;
  const { form } = state;
  const locked = !state.writable || state.saving;
  return (
    <li className={open ? 'rtb-card rtb-card-open' : 'rtb-card'} data-rtb-card="repeat-tool-breaker">
      <button type="button" className="rtb-header" aria-expanded={open} aria-controls={`${idBase}-body`} onClick={() => setOpen(!open)}>
        <span className="rtb-head-text">
          <span className="rtb-name">{TITLE}</span>
          <span className="rtb-description">{DESCRIPTION}</span>
        </span>
        {form.dirty ? <span className="rtb-pending">Unsaved</span> : null}
        <Chevron open={open} />
      </button>
      {open ? (
        <div className="rtb-body" id={`${idBase}-body`}>
          {state.writable ? null : (
            <p className="rtb-status" role="status">
              This deployment stores settings read-only.
            </p>
          )}
          <p className="rtb-status">
            Saved values reach running sessions without a restart. A change that tightens the breaker applies at once; one that loosens it reaches an agent
            from its next human message.
          </p>
          {form.groups.map((group) => (
            <fieldset key={group.id} className="rtb-group" data-rtb-group={group.id}>
              <legend className="rtb-legend">{group.title}</legend>
              {group.fields.map((view) => (
                <FieldRow key={view.field.path} view={view} idBase={idBase} store={store} locked={locked} />
              ))}
            </fieldset>
          ))}
          <div className="rtb-footer">
            {form.error === undefined ? null : (
              <p className="rtb-failed" role="alert">
                {form.error}
              </p>
            )}
            {state.failed ? (
              <p className="rtb-failed" role="status">
                The host did not accept these values; they are kept for you to correct.
              </p>
            ) : null}
            <button type="button" className="rtb-discard" data-rtb="discard" disabled={!form.dirty || state.saving} onClick={() => store.discard()}>
              Discard
            </button>
            <button type="button" className="rtb-save" data-rtb="save" disabled={!form.dirty || form.invalid || locked} onClick={() => void store.save()}>
              {state.saving ? 'Saving…' : 'Save'}
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

/** A render failure stays inside the card: React would otherwise unmount the whole settings dialog. */
export class CardBoundary extends Component<{ readonly children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <li className="rtb-card" data-rtb-card="repeat-tool-breaker">
        <p className="rtb-failed rtb-pad">The {TITLE} card failed to render; its settings can still be edited in the profile&apos;s cordis.patch.yml.</p>
      </li>
    );
  }
}
