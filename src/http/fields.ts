import { Type } from '@sinclair/typebox';
import type { ResourceType } from './problems.js';
import { RawJson } from './json-body.js';
import { parseEnumList } from './params.js';

/**
 * Field selection (spec 000 "Field selection and expansions"): a resource declares its wire
 * fields, its defaults and the name of its `*.fields` parameter once; every endpoint that
 * returns the resource selects through that declaration, as an object (selectFields) or as
 * JSON text (selectFieldsJson), which is what responses, stream lines and deliveries send.
 */
export interface ResourceDeclaration<Row, View, Wire = Record<string, unknown>> {
  resource: ResourceType;
  /** The query parameter, e.g. `post.fields`. */
  fieldsParam: string;
  /** Always returned. */
  defaults: ReadonlyArray<keyof Wire & string>;
  /**
   * Every selectable field: its value for a row (and the view: who looks, and when), or undefined
   * when the row has none. Computed for each answer: nothing rendered is kept.
   */
  fields: FieldTable<Row, View, Wire>;
}

/**
 * The converter of a wire object whose schema is `Wire` (the Static of a resource's TypeBox
 * schema, e.g. src/platform/posts/schema.ts): one function per field of the schema, no more and
 * no fewer, each returning that field's type. The schema, the OpenAPI description made from it
 * and the converter cannot drift apart: the compiler holds them together.
 */
export type FieldTable<Row, View, Wire> = { readonly [K in keyof Wire]-?: (row: Row, view: View) => Wire[K] | undefined };

const sortedNames = new WeakMap<object, string[]>();

/** Every field name of a resource, sorted (as error messages list them). */
export function fieldNames(decl: ResourceDeclaration<any, any>): string[] {
  let names = sortedNames.get(decl);
  if (!names) sortedNames.set(decl, (names = Object.keys(decl.fields).sort()));
  return names;
}

/**
 * Parses `decl.fieldsParam` from the query; an unknown name is an invalid-request naming it.
 * The same text always gives the same Set, so what is derived from a selection can be kept.
 */
export function parseFieldSelection(decl: ResourceDeclaration<any, any>, query: Record<string, unknown>): ReadonlySet<string> {
  const raw = query[decl.fieldsParam];
  return parseSelectionText(decl.fieldsParam, typeof raw === 'string' ? raw : undefined, fieldNames(decl));
}

/**
 * The schema keyword that carries a list parameter's names: on the wire a list is one
 * comma-separated string, checked by parseSelectionText (whose errors name the parameter as the
 * public platform's do); in the OpenAPI description it becomes an array of those names.
 */
export const LIST_NAMES_KEYWORD = 'x-list-of';

/** A comma-separated list parameter (`*.fields`, `expansions`) of these names. */
export function listParam(names: readonly string[], description: string) {
  return Type.Optional(Type.String({ description, [LIST_NAMES_KEYWORD]: [...names] }));
}

/** The `*.fields` parameter of a resource, its names from the declaration. */
export const fieldsParamOf = (decl: ResourceDeclaration<any, any>) => listParam(fieldNames(decl), `A comma separated list of ${decl.resource} fields to display.`);

/**
 * Rewrites the list parameters of an OpenAPI document as the public platform describes them: an
 * array of the allowed names, serialized as form, not exploded (`post.fields=id,text`).
 */
export function describeListParams(document: { paths?: Record<string, Record<string, { parameters?: Array<Record<string, any>> }>> }): void {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        const names = parameter.schema?.[LIST_NAMES_KEYWORD];
        if (!Array.isArray(names)) continue;
        parameter.schema = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: names } };
        parameter.style = 'form';
        parameter.explode = false;
      }
    }
  }
}

/** Per list of allowed names (one per endpoint's declarations), the valid inputs parsed so far. */
const parsedLists = new WeakMap<readonly string[], Map<string, ReadonlySet<string>>>();

/**
 * parseEnumList, remembered by its input for the valid ones, per list of allowed names: the same
 * text is valid on one endpoint and not on another (`expansions=author_id` on a post lookup and on
 * a user lookup). The space of valid inputs a route sees is small in practice; bounded anyway.
 */
export function parseSelectionText(name: string, raw: string | undefined, allowed: readonly string[]): ReadonlySet<string> {
  let parsed = parsedLists.get(allowed);
  if (!parsed) parsedLists.set(allowed, (parsed = new Map()));
  const key = `${name}\n${raw ?? ''}`;
  let set = parsed.get(key);
  if (!set) {
    set = parseEnumList(name, raw, allowed);
    if (parsed.size >= 1_000) parsed.clear();
    parsed.set(key, set);
  }
  return set;
}

/** The wire object: defaults plus the selected fields, in declaration order, absent values left out. */
export function selectFields<Row, View>(decl: ResourceDeclaration<Row, View>, row: Row, selected: ReadonlySet<string>, view: View): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of plan(decl, selected).fields) {
    const value = decl.fields[name](row, view);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The wire object as JSON text, the same object selectFields gives. */
export function selectFieldsJson<Row, View>(decl: ResourceDeclaration<Row, View>, row: Row, selected: ReadonlySet<string>, view: View): RawJson {
  return RawJson.of(JSON.stringify(selectFields(decl, row, selected, view)));
}

interface Plan {
  /** The fields to render, in declaration order. */
  fields: readonly string[];
}

const plans = new WeakMap<object, WeakMap<ReadonlySet<string>, Plan>>();
/** The plan used last: a response selects the same fields for each of its rows. */
let lastPlan: { decl: object; selected: ReadonlySet<string>; plan: Plan } | undefined;

function plan(decl: ResourceDeclaration<any, any>, selected: ReadonlySet<string>): Plan {
  if (lastPlan?.decl === decl && lastPlan.selected === selected) return lastPlan.plan;
  let byDecl = plans.get(decl);
  if (!byDecl) plans.set(decl, (byDecl = new WeakMap()));
  let p = byDecl.get(selected);
  if (!p) {
    p = { fields: Object.keys(decl.fields).filter((name) => selected.has(name) || decl.defaults.includes(name)) };
    byDecl.set(selected, p);
  }
  lastPlan = { decl, selected, plan: p };
  return p;
}
