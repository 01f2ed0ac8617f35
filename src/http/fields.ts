import { Type } from '@sinclair/typebox';
import type { Problems, ResourceType } from './problems.js';
import { RawJson } from './json-body.js';
import { parseEnumList } from './params.js';

/**
 * Field selection (spec 000 "Field selection and expansions"): a resource declares its wire
 * fields, its defaults and the name of its `*.fields` parameter once; every endpoint that
 * returns the resource selects through that declaration, as an object (selectFields) or as
 * JSON text (selectFieldsJson), which is what responses, stream lines and deliveries send.
 */
export interface ResourceDeclaration<Row, View> {
  resource: ResourceType;
  /** The query parameter, e.g. `post.fields`. */
  fieldsParam: string;
  /** Always returned. */
  defaults: readonly string[];
  /** Every selectable field: its value for a row, or undefined when the row has none. */
  fields: Readonly<Record<string, (row: Row, view: View) => unknown>>;
  /**
   * Declared by a resource whose JSON text may be kept with its rows: for a field whose value
   * reads the view (who looks, and when), what of the view it depends on as a short key (the same
   * key, the same value), or undefined to have that field computed afresh for each answer (the
   * rest is still kept). A field whose function takes the view (a second parameter) and has no
   * entry here is computed afresh for each answer: it cannot be served stale. Without this
   * declaration, nothing is kept.
   */
  viewKeys?: Readonly<Record<string, (row: Row, view: View) => string | undefined>>;
}

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
export function parseFieldSelection(problems: Problems, decl: ResourceDeclaration<any, any>, query: Record<string, unknown>): ReadonlySet<string> {
  const raw = query[decl.fieldsParam];
  return parseSelectionText(problems, decl.fieldsParam, typeof raw === 'string' ? raw : undefined, fieldNames(decl));
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
export function parseSelectionText(problems: Problems, name: string, raw: string | undefined, allowed: readonly string[]): ReadonlySet<string> {
  let parsed = parsedLists.get(allowed);
  if (!parsed) parsedLists.set(allowed, (parsed = new Map()));
  const key = `${name}\n${raw ?? ''}`;
  let set = parsed.get(key);
  if (!set) {
    set = parseEnumList(problems, name, raw, allowed);
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

/**
 * The wire object as JSON text, the same object selectFields gives. The text is kept with the
 * row (for as long as the row object lives: one response, or one dispatch of a stream's lines)
 * for each selection and each key of the view-dependent fields it includes.
 */
export function selectFieldsJson<Row extends object, View>(decl: ResourceDeclaration<Row, View>, row: Row, selected: ReadonlySet<string>, view: View): RawJson {
  const p = plan(decl, selected);
  if (!decl.viewKeys) return RawJson.of(render(decl, p.fields, row, view));
  const parts = scratchParts;
  const live = viewKeysInto(parts, decl, p, row, view);
  let kept = memo.get(row);
  if (!kept) memo.set(row, (kept = []));
  let json = keptText(kept, p, parts);
  if (json === undefined) {
    // Copied before rendering, which may select the fields of other objects.
    const keys = parts.slice(0, p.viewDependent.length);
    json = RawJson.of(render(decl, live ? keptFields(p, live) : p.fields, row, view));
    // A row keeps the texts of a few selections and view keys (which change with time and with
    // the generations of other tables): clients tend to ask for the same few.
    if (kept.length >= 16) kept.shift();
    kept.push({ plan: p, parts: keys, json });
  }
  return live ? RawJson.joined(json, render(decl, live, row, view)) : json;
}

/**
 * The whole wire object's text when selectFieldsJson has it kept for this selection and view
 * (no field of it rendered for each answer); undefined otherwise. A response that finds every
 * row's text kept need not read what rendering them would need (expansions.ts, post extras).
 */
export function keptFieldsJson<Row extends object, View>(decl: ResourceDeclaration<Row, View>, row: Row, selected: ReadonlySet<string>, view: View): RawJson | undefined {
  if (!decl.viewKeys) return undefined;
  const p = plan(decl, selected);
  const kept = memo.get(row);
  if (!kept || viewKeysInto(scratchParts, decl, p, row, view)) return undefined;
  return keptText(kept, p, scratchParts);
}

/**
 * What each view-dependent field's value depends on for this view, written into the first entries
 * of `parts` (one scratch array: this runs for every row shown); returns the fields whose view key
 * is undefined.
 * Such a field (read from other rows that may have changed unseen) is rendered for each answer
 * and joined to the kept text of the rest, so asking for one of them does not cost the whole object.
 */
function viewKeysInto<Row, View>(parts: Array<string | undefined>, decl: ResourceDeclaration<Row, View>, p: Plan, row: Row, view: View): string[] | undefined {
  // Only the first viewDependent.length entries are this row's; the array is not cut to them
  // (setting an array's length is a call into the engine's runtime, for each row shown).
  let live: string[] | undefined;
  const keyOf = p.viewKeyOf as ReadonlyArray<(row: Row, view: View) => string | undefined>;
  for (let i = 0; i < keyOf.length; i++) {
    const part = keyOf[i](row, view);
    parts[i] = part;
    if (part === undefined) (live ??= []).push(p.viewDependent[i]);
  }
  return live;
}

function keptText(kept: ReadonlyArray<{ plan: Plan; parts: ReadonlyArray<string | undefined>; json: RawJson }>, p: Plan, parts: ReadonlyArray<string | undefined>): RawJson | undefined {
  for (const entry of kept) if (entry.plan === p && samePlanKeys(entry.parts, parts)) return entry.json;
  return undefined;
}

const scratchParts: Array<string | undefined> = [];

/** Whether `b` starts with the keys of `a`, a kept text's (the scratch array may run longer than its plan). */
function samePlanKeys(a: ReadonlyArray<string | undefined>, b: ReadonlyArray<string | undefined>): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The plan's fields but the live ones, kept per plan by their names. */
function keptFields(p: Plan, live: readonly string[]): readonly string[] {
  const names = live.join(',');
  let fields = p.keptWithout.get(names);
  if (!fields) {
    if (p.keptWithout.size >= 64) p.keptWithout.clear();
    p.keptWithout.set(names, (fields = p.fields.filter((f) => !live.includes(f))));
  }
  return fields;
}

function render<Row, View>(decl: ResourceDeclaration<Row, View>, fields: readonly string[], row: Row, view: View): string {
  let text = '';
  for (const name of fields) {
    const value = decl.fields[name](row, view);
    if (value === undefined) continue;
    text += `${text ? ',' : '{'}${JSON.stringify(name)}:${JSON.stringify(value)}`;
  }
  return text ? `${text}}` : '{}';
}

/** Row -> its kept texts, each with its selection plan and the view keys of that plan's view-dependent fields. */
const memo = new WeakMap<object, Array<{ plan: Plan; parts: ReadonlyArray<string | undefined>; json: RawJson }>>();

interface Plan {
  /** The fields to render, in declaration order. */
  fields: readonly string[];
  /** Those of them whose value depends on the view. */
  viewDependent: readonly string[];
  /** Their view keys' functions, in the same order (one array read per field, not a lookup by name). */
  viewKeyOf: ReadonlyArray<(row: any, view: any) => string | undefined>;
  /** The fields but those rendered for each answer, by their names (keptFields). */
  keptWithout: Map<string, readonly string[]>;
}

/**
 * A field's function reads the view only through its second parameter, so one declared with it
 * depends on the view; without a view key it is rendered for each answer, never kept.
 */
const readsView = (field: (row: any, view: any) => unknown) => field.length >= 2;
const renderedEachTime = () => undefined;

const plans = new WeakMap<object, WeakMap<ReadonlySet<string>, Plan>>();
/** The plan used last: a response selects the same fields for each of its rows. */
let lastPlan: { decl: object; selected: ReadonlySet<string>; plan: Plan } | undefined;

function plan(decl: ResourceDeclaration<any, any>, selected: ReadonlySet<string>): Plan {
  if (lastPlan?.decl === decl && lastPlan.selected === selected) return lastPlan.plan;
  let byDecl = plans.get(decl);
  if (!byDecl) plans.set(decl, (byDecl = new WeakMap()));
  let p = byDecl.get(selected);
  if (!p) {
    const fields = Object.keys(decl.fields).filter((name) => selected.has(name) || decl.defaults.includes(name));
    const viewDependent = fields.filter((name) => decl.viewKeys?.[name] || readsView(decl.fields[name]));
    p = { fields, viewDependent, viewKeyOf: viewDependent.map((name) => decl.viewKeys?.[name] ?? renderedEachTime), keptWithout: new Map() };
    byDecl.set(selected, p);
  }
  lastPlan = { decl, selected, plan: p };
  return p;
}
