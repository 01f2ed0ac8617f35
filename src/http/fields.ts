import type { Problems, ResourceType } from './problems.js';
import { parseEnumList } from './params.js';

/**
 * Field selection (spec 000 "Field selection and expansions"): a resource declares its wire
 * fields, its defaults and the name of its `*.fields` parameter once; every endpoint that
 * returns the resource selects through that declaration.
 */
export interface ResourceDeclaration<Row, View> {
  resource: ResourceType;
  /** The query parameter, e.g. `post.fields`. */
  fieldsParam: string;
  /** Always returned. */
  defaults: readonly string[];
  /** Every selectable field: its value for a row, or undefined when the row has none. */
  fields: Readonly<Record<string, (row: Row, view: View) => unknown>>;
}

export function fieldNames(decl: ResourceDeclaration<any, any>): string[] {
  return Object.keys(decl.fields).sort();
}

/** Parses `decl.fieldsParam` from the query; an unknown name is an invalid-request naming it. */
export function parseFieldSelection(
  problems: Problems,
  decl: ResourceDeclaration<any, any>,
  query: Record<string, unknown>,
): Set<string> {
  const raw = query[decl.fieldsParam];
  return parseEnumList(problems, decl.fieldsParam, typeof raw === 'string' ? raw : undefined, fieldNames(decl));
}

/** The wire object: defaults plus the selected fields, in declaration order, absent values left out. */
export function selectFields<Row, View>(
  decl: ResourceDeclaration<Row, View>,
  row: Row,
  selected: ReadonlySet<string>,
  view: View,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = decl.fields;
  // for...in walks the declaration's own keys in the order Object.entries gives, without building the pairs.
  for (const name in fields) {
    if (!selected.has(name) && !decl.defaults.includes(name)) continue;
    const value = fields[name](row, view);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
