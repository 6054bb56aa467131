/**
 * The card's styles: the shell's `--dsw-alias-*` theme variables only, so the
 * card follows light and dark with the rest of the dialog, and the same
 * spacing, radii and type sizes as DSH's own plugin cards.
 *
 * State colours are the ones rc.8's theme defines (`--dsw-alias-state-*`;
 * DSH's own cards name `--dsw-alias-label-error`, which no theme defines, so
 * their errors are not red). Each carries a fallback for a shell without it.
 */

const ERROR = 'var(--dsw-alias-state-error-primary,#dc2626)';
const WARN = 'var(--dsw-alias-state-warn-label,#b45309)';
const SUCCESS = 'var(--dsw-alias-state-success-primary,#16a34a)';

const CSS = `
.rtb-card{border:1px solid var(--dsw-alias-border-l2);background:var(--dsw-alias-bg-layer-3);border-radius:12px;list-style:none;transition:border-color .16s,background .16s}
.rtb-card:hover{border-color:var(--dsw-alias-label-dimmed)}
.rtb-card-open{background:var(--dsw-alias-bg-layer-2);border-color:var(--dsw-alias-label-dimmed)}
.rtb-header{appearance:none;width:100%;font:inherit;color:inherit;text-align:left;cursor:pointer;background:none;border:0;border-radius:12px;display:flex;align-items:center;gap:12px;padding:14px 16px}
.rtb-header:focus-visible{outline:2px solid var(--dsw-alias-brand-primary);outline-offset:-2px}
.rtb-head-text{display:flex;flex-direction:column;flex:1;gap:4px;min-width:0}
.rtb-name{color:var(--dsw-alias-label-primary);font-size:15px;font-weight:600;line-height:1.4}
.rtb-description{color:var(--dsw-alias-label-tertiary);font-size:13px;line-height:1.5}
.rtb-chevron{color:var(--dsw-alias-label-tertiary);flex:none;transition:transform .16s}
.rtb-chevron-open{transform:rotate(180deg)}
.rtb-pending,.rtb-badge{white-space:nowrap;background:var(--dsw-alias-bg-module-platform);color:var(--dsw-alias-label-secondary);border-radius:999px;flex:none;padding:1px 8px;font-size:11px;font-weight:500;line-height:17px}
.rtb-badge-muted{white-space:nowrap;color:var(--dsw-alias-label-tertiary);border-radius:999px;padding:1px 8px;font-size:11px;line-height:17px}
.rtb-body{border-top:1px solid var(--dsw-alias-border-l2);margin:0 16px;padding-bottom:8px}
.rtb-status{color:var(--dsw-alias-label-tertiary);margin:12px 0 0;font-size:12px;line-height:1.5}
.rtb-group{border:0;margin:16px 0 0;padding:4px 0 0;min-width:0}
.rtb-group+.rtb-group{border-top:1px solid var(--dsw-alias-border-l2);margin-top:8px}
.rtb-legend{padding:0;color:var(--dsw-alias-label-secondary);font-size:12px;font-weight:600;letter-spacing:.02em;text-transform:uppercase;line-height:1.5}
.rtb-field{display:flex;flex-direction:column;gap:6px;padding:10px 0}
.rtb-field+.rtb-field{border-top:1px dashed var(--dsw-alias-border-l2)}
.rtb-field-off{opacity:.55}
.rtb-head{display:flex;align-items:center;gap:8px}
.rtb-label{flex:1;min-width:0;color:var(--dsw-alias-label-primary);font-size:13px;font-weight:500;line-height:1.5}
.rtb-key{margin-left:8px;color:var(--dsw-alias-label-tertiary);font-family:var(--dsw-font-mono,ui-monospace,SFMono-Regular,Menlo,monospace);font-size:11px;font-weight:400;overflow-wrap:anywhere}
.rtb-badges{display:inline-flex;align-items:center;gap:8px}
.rtb-reset{font:inherit;color:var(--dsw-alias-label-secondary);cursor:pointer;background:none;border:none;border-radius:4px;padding:0 2px;font-size:12px;line-height:1.5;text-decoration:underline;text-underline-offset:2px}
.rtb-reset:hover:not(:disabled){color:var(--dsw-alias-label-primary)}
.rtb-reset:focus-visible{outline:2px solid var(--dsw-alias-brand-primary);outline-offset:1px}
.rtb-reset:disabled{cursor:default}
.rtb-input{box-sizing:border-box;width:100%;border:1px solid var(--dsw-alias-border-l2);background:var(--dsw-alias-bg-layer-3);height:34px;font:inherit;color:var(--dsw-alias-label-primary);border-radius:8px;padding:0 12px;font-size:13px;line-height:1.5}
.rtb-short{max-width:240px}
.rtb-select{padding:0 8px}
.rtb-area{height:auto;padding:6px 12px;font-family:var(--dsw-font-mono,ui-monospace,SFMono-Regular,Menlo,monospace);font-size:12px;resize:vertical}
.rtb-input:focus-visible{border-color:var(--dsw-alias-brand-primary);outline:none}
.rtb-input:disabled{color:var(--dsw-alias-label-tertiary);cursor:default}
.rtb-input-invalid,.rtb-input-invalid:focus-visible{border-color:${ERROR}}
.rtb-check{width:16px;height:16px;margin:0;accent-color:var(--dsw-alias-label-primary);cursor:pointer}
.rtb-check:focus-visible{outline:2px solid var(--dsw-alias-brand-primary);outline-offset:2px}
.rtb-note,.rtb-fixed-title{color:var(--dsw-alias-label-tertiary);margin:0;font-size:12px;line-height:1.5}
.rtb-invalid{color:${ERROR}}
.rtb-warning{color:${WARN};margin:0;font-size:12px;line-height:1.5}
.rtb-default{color:var(--dsw-alias-label-tertiary);overflow-wrap:anywhere}
/* Sticky into the dialog's 24 px bottom padding (rc.8), its own padding filling it, so nothing scrolls by under the buttons. */
.rtb-footer{position:sticky;bottom:-24px;z-index:1;background:var(--dsw-alias-bg-layer-2);border-top:1px solid var(--dsw-alias-border-l2);display:flex;flex-wrap:wrap;justify-content:flex-end;align-items:center;gap:8px;padding:12px 0 32px;margin-top:8px}
.rtb-stored{border:1px solid ${ERROR};border-radius:8px;margin:12px 0 0;padding:10px 12px;display:flex;flex-direction:column;gap:6px}
.rtb-stored-title{color:${ERROR};margin:0;font-size:13px;font-weight:600;line-height:1.5}
.rtb-stored-message{color:${ERROR};margin:0;font-size:12px;line-height:1.5;overflow-wrap:anywhere}
.rtb-link:disabled{cursor:default;opacity:.4}
.rtb-stored-text{color:var(--dsw-alias-label-secondary);margin:0;font-size:12px;line-height:1.5}
.rtb-stored-actions{display:flex;flex-wrap:wrap;gap:8px}
.rtb-pending-refused{color:${ERROR}}
.rtb-preset{padding:0 0 8px}
.rtb-fold{display:flex;flex-direction:column;gap:2px;padding:10px 0}
.rtb-field+.rtb-fold,.rtb-fold+.rtb-fold,.rtb-fold+.rtb-field,.rtb-track-fold+.rtb-field{border-top:1px dashed var(--dsw-alias-border-l2)}
.rtb-fold-toggle{appearance:none;font:inherit;color:var(--dsw-alias-label-primary);cursor:pointer;background:none;border:0;border-radius:6px;display:inline-flex;align-items:center;gap:6px;min-width:0;flex:1;padding:2px 0;text-align:left;font-size:13px;font-weight:500;line-height:1.5}
.rtb-fold-toggle:focus-visible{outline:2px solid var(--dsw-alias-brand-primary);outline-offset:1px}
.rtb-fold-toggle:hover .rtb-fold-title,.rtb-fold-toggle:hover .rtb-fold-summary{color:var(--dsw-alias-label-primary)}
.rtb-fold-chevron{flex:none;color:var(--dsw-alias-label-tertiary);transition:transform 120ms ease}
.rtb-fold-chevron-open{transform:rotate(90deg)}
.rtb-fold-summary{margin:0 0 0 20px;color:var(--dsw-alias-label-tertiary);font-size:12px;font-weight:400;line-height:1.5;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
.rtb-fold-toggle-under .rtb-fold-summary{margin:0}
.rtb-fold-body{margin:4px 0 0 6px;padding-left:14px;border-left:2px solid var(--dsw-alias-border-l2)}
.rtb-track-fold{display:flex;flex-direction:column;margin-top:-6px;padding:0 0 10px}
.rtb-badge-problem{color:${ERROR}}
.rtb-dropped-list{list-style:none;margin:2px 0;padding:0;display:flex;flex-direction:column;gap:8px}
.rtb-dropped{display:flex;flex-direction:column;gap:4px;padding:6px 0 0;border-top:1px dashed var(--dsw-alias-border-l2)}
.rtb-dropped-value{color:var(--dsw-alias-label-primary);font-family:var(--dsw-font-mono,ui-monospace,SFMono-Regular,Menlo,monospace);font-size:12px;overflow-wrap:anywhere}
.rtb-dropped-actions{color:var(--dsw-alias-label-secondary);display:flex;flex-wrap:wrap;align-items:center;gap:10px;font-size:12px;line-height:1.5}
.rtb-preset-list,.rtb-fixed-list{margin:4px 0 0;padding-left:18px;color:var(--dsw-alias-label-secondary);font-size:12px;line-height:1.6}
.rtb-fixed-list code{font-family:var(--dsw-font-mono,ui-monospace,SFMono-Regular,Menlo,monospace);font-size:11px}
.rtb-failed{flex:1 1 100%;min-width:0;color:${ERROR};margin:0;font-size:12px;line-height:1.5}
.rtb-reason{flex:1 1 100%;min-width:0;color:${ERROR};margin:0;font-size:12px;line-height:1.5;text-align:right}
.rtb-link{font:inherit;color:inherit;cursor:pointer;background:none;border:none;border-radius:4px;padding:0;text-decoration:underline;text-underline-offset:2px}
.rtb-link:focus-visible{outline:2px solid var(--dsw-alias-brand-primary);outline-offset:1px}
.rtb-saved{flex:1;min-width:0;color:${SUCCESS};margin:0;font-size:12px;line-height:1.5;text-align:right}
.rtb-pad{padding:14px 16px}
.rtb-discard,.rtb-save{appearance:none;font:inherit;cursor:pointer;border:1px solid transparent;border-radius:8px;padding:5px 14px;font-size:13px;line-height:1.5}
.rtb-discard{border-color:var(--dsw-alias-border-l2);color:var(--dsw-alias-label-secondary);background:none}
.rtb-discard:hover:not(:disabled){color:var(--dsw-alias-label-primary);border-color:var(--dsw-alias-label-dimmed)}
.rtb-save{background:var(--dsw-alias-label-primary);color:var(--dsw-alias-bg-layer-3)}
.rtb-discard:disabled,.rtb-save:disabled{opacity:.4;cursor:default}
.rtb-discard:focus-visible,.rtb-save:focus-visible{outline:2px solid var(--dsw-alias-brand-primary);outline-offset:1px}
`;

/** Adds the stylesheet once per page, tagged the way DSH's loader inventories a plugin's style tags. */
export function mountStyle(plugin: string): void {
  if (typeof document === 'undefined') return;
  const id = `${plugin}/card.css`;
  if (document.querySelector(`style[data-plugin-css=${JSON.stringify(id)}]`) !== null) return;
  const tag = document.createElement('style');
  tag.dataset.plugin = plugin;
  tag.dataset.pluginCss = id;
  tag.textContent = CSS;
  document.head.appendChild(tag);
}
