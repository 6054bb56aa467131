/**
 * A node of the live settings namespace's schema, in schemastery's serialised
 * form (config/schema.ts numbers the nodes and serves them), and the few
 * kinds of node the settings are made of. A track's setting brings its own
 * node (`meta.setting.schema`), built from these.
 */

/** One node of schemastery's serialised form (children by uid in `refs`). */
export interface SchemaNode {
  readonly type: 'object' | 'dict' | 'array' | 'union' | 'const' | 'number' | 'string' | 'boolean';
  readonly meta: {
    readonly default?: unknown;
    readonly description?: string;
    readonly min?: number;
    readonly step?: number;
  };
  readonly dict?: Readonly<Record<string, SchemaNode>>;
  readonly inner?: SchemaNode;
  readonly sKey?: SchemaNode;
  readonly list?: readonly SchemaNode[];
  readonly value?: unknown;
}

/** `node` with its description and default. */
export const described = (node: SchemaNode, description: string, fallback: unknown): SchemaNode => ({
  ...node,
  meta: { ...node.meta, description, default: fallback },
});

/** A whole number of at least `min`. */
export const count = (min: number): SchemaNode => ({ type: 'number', meta: { min, step: 1 } });
/** A cap: any number of at least 2 (a cap below 2 would deny the first call). */
export const cap = (): SchemaNode => ({ type: 'number', meta: { min: 2 } });
export const constant = (value: unknown): SchemaNode => ({ type: 'const', meta: {}, value });
export const nullable = (node: SchemaNode): SchemaNode => ({ type: 'union', meta: {}, list: [node, constant(null)] });
export const oneOf = (...values: string[]): SchemaNode => ({ type: 'union', meta: {}, list: values.map(constant) });
export const string = (): SchemaNode => ({ type: 'string', meta: {} });
export const names = (): SchemaNode => ({ type: 'array', meta: {}, inner: string() });
export const dictOf = (inner: SchemaNode): SchemaNode => ({ type: 'dict', meta: {}, inner, sKey: string() });
export const object = (dict: Record<string, SchemaNode>): SchemaNode => ({ type: 'object', meta: {}, dict });
