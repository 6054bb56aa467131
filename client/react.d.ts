/**
 * The part of React 18 the card uses, typed here instead of depending on
 * @types/react (1.7 MB of declarations with csstype, for a dozen names). The shell supplies
 * React at run time through the loader's `require`; these declarations only
 * have to match what the card calls, and `tsc -p client` checks every JSX
 * attribute against the element props below.
 */
declare module 'react' {
  export interface ReactElement {
    readonly type: unknown;
    readonly props: unknown;
    readonly key: string | null;
  }
  export type ReactNode = ReactElement | string | number | boolean | null | undefined | readonly ReactNode[];
  export type SetState<S> = (next: S | ((previous: S) => S)) => void;

  export function useState<S>(initial: S | (() => S)): [S, SetState<S>];
  export function useSyncExternalStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T): T;
  export function useId(): string;
  export function useRef<T>(initial: T): { current: T };

  /** Class components exist here only for the error boundary. */
  export class Component<P, S> {
    constructor(props: P);
    readonly props: P;
    state: S;
    setState(next: Partial<S>): void;
    render(): ReactNode;
  }
}

declare module 'react/jsx-runtime' {
  import type { ReactElement, ReactNode } from 'react';

  export function jsx(type: unknown, props: unknown, key?: string): ReactElement;
  export function jsxs(type: unknown, props: unknown, key?: string): ReactElement;
  export const Fragment: unique symbol;

  interface KeyEvent {
    readonly key: string;
    readonly ctrlKey: boolean;
    readonly metaKey: boolean;
    readonly shiftKey: boolean;
    preventDefault(): void;
    stopPropagation(): void;
  }
  interface ChangeEvent<T> {
    readonly target: T;
  }
  interface Common {
    readonly key?: string | number;
    readonly children?: ReactNode;
    readonly className?: string;
    readonly id?: string;
    readonly role?: string;
    readonly title?: string;
    readonly lang?: string;
    readonly hidden?: boolean;
    readonly tabIndex?: number;
    readonly 'aria-label'?: string;
    readonly 'aria-labelledby'?: string;
    readonly 'aria-describedby'?: string;
    readonly 'aria-expanded'?: boolean;
    readonly 'aria-controls'?: string;
    readonly 'aria-invalid'?: boolean;
    readonly 'aria-live'?: 'polite' | 'assertive' | 'off';
    readonly 'aria-hidden'?: boolean;
    readonly 'aria-disabled'?: boolean;
    readonly [data: `data-${string}`]: string | boolean | undefined;
    readonly onKeyDown?: (event: KeyEvent) => void;
  }
  interface Control extends Common {
    readonly name?: string;
    readonly disabled?: boolean;
  }
  interface InputProps extends Control {
    readonly type: 'text' | 'checkbox';
    readonly value?: string;
    readonly checked?: boolean;
    readonly placeholder?: string;
    readonly inputMode?: 'numeric' | 'text';
    readonly spellCheck?: boolean;
    readonly autoComplete?: string;
    readonly onChange?: (event: ChangeEvent<{ readonly value: string; readonly checked: boolean }>) => void;
  }
  interface TextareaProps extends Control {
    readonly value: string;
    readonly rows?: number;
    readonly spellCheck?: boolean;
    readonly placeholder?: string;
    readonly onChange?: (event: ChangeEvent<{ readonly value: string }>) => void;
  }
  interface SelectProps extends Control {
    readonly value: string;
    readonly onChange?: (event: ChangeEvent<{ readonly value: string }>) => void;
  }
  interface ButtonProps extends Control {
    readonly type: 'button';
    readonly onClick?: () => void;
  }
  interface SvgProps extends Common {
    readonly width?: number;
    readonly height?: number;
    readonly viewBox?: string;
    readonly fill?: string;
    readonly stroke?: string;
    readonly strokeWidth?: number;
    readonly strokeLinecap?: 'round';
    readonly strokeLinejoin?: 'round';
    readonly d?: string;
  }

  export namespace JSX {
    type Element = ReactElement;
    interface ElementChildrenAttribute {
      children: unknown;
    }
    interface IntrinsicAttributes {
      readonly key?: string | number;
    }
    interface IntrinsicElements {
      div: Common;
      span: Common;
      p: Common;
      h3: Common;
      ul: Common;
      li: Common;
      code: Common;
      fieldset: Control;
      legend: Common;
      label: Common & { readonly htmlFor?: string };
      input: InputProps;
      textarea: TextareaProps;
      select: SelectProps;
      option: { readonly key?: string | number; readonly value: string; readonly children?: ReactNode };
      button: ButtonProps;
      svg: SvgProps;
      path: SvgProps;
    }
  }
}
