import { Type, type Static } from '@sinclair/typebox';
import type { DbOrTx } from '../../store/store.js';
import type { AdsActor } from '../actor.js';
import { AdsId, AdsTime, Entity, Nullable, OneOf } from '../http/entity-schema.js';
import { AdsError } from '../http/errors.js';
import { wireTime } from '../http/time.js';
import { newAdsId } from '../ids.js';
import { PRODUCT_FIELDS, parsePrice, type ProductFields } from './product-fields.js';
import { getCatalog } from './service.js';
import {
  allProducts,
  deleteProductSetRow,
  findProductSet,
  insertProductSet,
  productSetsOf,
  productsByKeys,
  updateProductSetRow,
  type ProductRow,
  type ProductSetRow,
} from './store.js';

/**
 * Product sets (shared/reference/ads.md §3): a subset of a catalog for dynamic product ads.
 * MANUAL sets list product_keys; FILTERED sets hold filters [{attribute, operator, value}], all of
 * which a product must pass, evaluated against the catalog whenever the set is read, so
 * product_ids always name the catalog's current products. Plaza evaluates at once:
 * processing_status is DONE.
 */
export const PRODUCT_SET_TYPES = ['MANUAL', 'FILTERED'] as const;
/** Text operators compare case-insensitively; GREATER_THAN and LESS_THAN compare numbers (prices by amount). */
export const FILTER_OPERATORS = ['EQUALS', 'NOT_EQUALS', 'CONTAINS', 'NOT_CONTAINS', 'GREATER_THAN', 'LESS_THAN'] as const;
const NUMERIC_ATTRIBUTES = ['price', 'sale_price', 'inventory'];
const MAX_FILTERS = 20;
const MAX_PRODUCT_KEYS = 1000;

export interface ProductFilter {
  attribute: string;
  operator: (typeof FILTER_OPERATORS)[number];
  value: string | number;
}

function numberOf(attribute: string, value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const price = attribute === 'price' || attribute === 'sale_price' ? parsePrice(value) : undefined;
  if (price) return price.amount;
  const n = value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function passes(fields: ProductFields, f: ProductFilter): boolean {
  const have = fields[f.attribute];
  if (f.operator === 'GREATER_THAN' || f.operator === 'LESS_THAN') {
    const n = numberOf(f.attribute, have);
    const limit = numberOf(f.attribute, f.value);
    if (n === undefined || limit === undefined) return false;
    return f.operator === 'GREATER_THAN' ? n > limit : n < limit;
  }
  const text = have === undefined ? '' : String(have).toLowerCase();
  const value = String(f.value).toLowerCase();
  switch (f.operator) {
    case 'EQUALS':
      return text === value;
    case 'NOT_EQUALS':
      return text !== value;
    case 'CONTAINS':
      return text.includes(value);
    case 'NOT_CONTAINS':
      return !text.includes(value);
  }
}

export function parseFilters(raw: unknown): ProductFilter[] {
  if (!Array.isArray(raw) || raw.length === 0) throw AdsError.invalidParameter('filters', 'Expected a non-empty array of {attribute, operator, value}');
  if (raw.length > MAX_FILTERS) throw AdsError.invalidParameter('filters', `Expected at most ${MAX_FILTERS} filters, got ${raw.length}`);
  return raw.map((f, i) => {
    const at = `filters[${i}]`;
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw AdsError.invalidParameter(at, 'Expected {attribute, operator, value}');
    const { attribute, operator, value } = f as Record<string, unknown>;
    if (typeof attribute !== 'string' || !PRODUCT_FIELDS.includes(attribute)) throw AdsError.invalidParameter(`${at}.attribute`, `Expected a product field, one of ${PRODUCT_FIELDS.join(', ')}`);
    if (typeof operator !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(operator)) {
      throw AdsError.invalidParameter(`${at}.operator`, `Expected a value in ${FILTER_OPERATORS.join(', ')}`);
    }
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).length > 500) throw AdsError.invalidParameter(`${at}.value`, 'Expected a string or a number');
    const filter: ProductFilter = { attribute, operator: operator as ProductFilter['operator'], value };
    if ((operator === 'GREATER_THAN' || operator === 'LESS_THAN') && (!NUMERIC_ATTRIBUTES.includes(attribute) || numberOf(attribute, value) === undefined)) {
      throw AdsError.invalidParameter(`${at}.operator`, `${operator} compares numbers: attribute one of ${NUMERIC_ATTRIBUTES.join(', ')} and a numeric value`);
    }
    return filter;
  });
}

function parseProductKeys(raw: unknown): string[] {
  const list = typeof raw === 'string' ? raw.split(',').map((k) => k.trim()).filter(Boolean) : raw;
  if (!Array.isArray(list) || list.length === 0) throw AdsError.invalidParameter('product_keys', 'Expected a non-empty array of product keys');
  if (list.length > MAX_PRODUCT_KEYS) throw AdsError.invalidParameter('product_keys', `Expected at most ${MAX_PRODUCT_KEYS} product keys`);
  if (!list.every((k) => typeof k === 'string' && k.length > 0 && k.length <= 100 && !k.includes('\u0000'))) throw AdsError.invalidParameter('product_keys', 'Expected product key strings');
  return [...new Set(list as string[])];
}

async function checkKeysExist(db: DbOrTx, catalogId: string, keys: string[]): Promise<void> {
  const found = new Set((await productsByKeys(db, catalogId, keys)).map((p) => p.product_key));
  const missing = keys.filter((k) => !found.has(k));
  if (missing.length > 0) throw AdsError.invalidParameter('product_keys', `Product keys not in the catalog: ${missing.slice(0, 20).join(', ')}`);
}

/** The products a set holds now, in catalog order. */
function members(set: ProductSetRow, products: ProductRow[]): ProductRow[] {
  if (set.type === 'MANUAL') {
    const keys = new Set(JSON.parse(set.product_keys) as string[]);
    return products.filter((p) => keys.has(p.product_key));
  }
  const filters = JSON.parse(set.filters) as ProductFilter[];
  return products.filter((p) => {
    const fields = JSON.parse(p.fields) as ProductFields;
    return filters.every((f) => passes(fields, f));
  });
}

export const ProductSetSchema = Entity('ProductSet', 'A subset of a catalog for dynamic product ads (shared/reference/ads.md §3)', {
  id: AdsId,
  name: Type.String(),
  description: Nullable(Type.String()),
  type: OneOf(PRODUCT_SET_TYPES),
  product_ids: Type.Array(Type.String(), { description: "The ids of the catalog's products the set holds now" }),
  filters: Type.Array(Type.Object({ attribute: Type.String(), operator: OneOf(FILTER_OPERATORS), value: Type.Union([Type.String(), Type.Number()]) }, { additionalProperties: false }), {
    description: 'FILTERED sets: all of which a product must pass',
  }),
  processing_status: Type.Literal('DONE', { description: 'Plaza evaluates a set at once' }),
  created_at: AdsTime,
  updated_at: AdsTime,
});
type ProductSet = Static<typeof ProductSetSchema>;

export function productSetWire(set: ProductSetRow, products: ProductRow[]): ProductSet {
  return {
    id: set.id,
    name: set.name,
    description: set.description,
    type: set.type as ProductSet['type'],
    product_ids: members(set, products).map((p) => p.id),
    filters: JSON.parse(set.filters) as ProductFilter[],
    processing_status: 'DONE',
    created_at: wireTime(set.created_at),
    updated_at: wireTime(set.updated_at),
  };
}

export async function productSetsWire(db: DbOrTx, catalogId: string, sets: ProductSetRow[]) {
  const products = sets.length === 0 ? [] : await allProducts(db, catalogId);
  return sets.map((s) => productSetWire(s, products));
}

export interface ProductSetInput {
  name?: string;
  type?: string;
  description?: string | null;
  filters?: unknown;
  product_keys?: unknown;
}

/** filters and product_keys come from the JSON body: they are arrays (of objects, for filters). */
export function productSetInput(params: { name?: string; type?: string; description?: string | null }, body: unknown): ProductSetInput {
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...params, filters: b.filters, product_keys: b.product_keys };
}

export async function listProductSets(actor: AdsActor, db: DbOrTx, catalogId: string | undefined) {
  const catalog = await getCatalog(actor, db, catalogId);
  return { catalog, sets: await productSetsOf(db, catalog.id).orderBy('created_at').orderBy('id').execute() };
}

export async function getProductSet(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, id: string | undefined) {
  const catalog = await getCatalog(actor, db, catalogId);
  const set = id === undefined ? undefined : await findProductSet(db, catalog.id, id);
  if (!set) throw AdsError.notFound(`Product set ${id ?? ''} was not found in product catalog ${catalog.id}`, 'product_set_id');
  return { catalog, set };
}

async function checkedContents(db: DbOrTx, catalogId: string, type: string, p: ProductSetInput): Promise<{ filters: string; product_keys: string }> {
  if (type === 'MANUAL') {
    if (p.filters !== undefined) throw AdsError.invalidParameter('filters', 'A MANUAL product set lists product_keys; filters are for FILTERED sets');
    if (p.product_keys === undefined) throw AdsError.missingParameter('product_keys');
    const keys = parseProductKeys(p.product_keys);
    await checkKeysExist(db, catalogId, keys);
    return { filters: '[]', product_keys: JSON.stringify(keys) };
  }
  if (p.product_keys !== undefined) throw AdsError.invalidParameter('product_keys', 'A FILTERED product set holds filters; product_keys are for MANUAL sets');
  if (p.filters === undefined) throw AdsError.missingParameter('filters');
  return { filters: JSON.stringify(parseFilters(p.filters)), product_keys: '[]' };
}

export async function createProductSet(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, p: ProductSetInput & { name: string; type: string }) {
  const catalog = await getCatalog(actor, db, catalogId);
  const contents = await checkedContents(db, catalog.id, p.type, p);
  const now = actor.ctx.clock.now().toISOString();
  const set: ProductSetRow = { id: newAdsId(actor.ctx), catalog_id: catalog.id, name: p.name, description: p.description ?? null, type: p.type, ...contents, created_at: now, updated_at: now };
  await insertProductSet(db, set);
  return { catalog, set };
}

/** PUT: name, description and the set's contents (product_keys or filters, by its type). */
export async function updateProductSet(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, id: string | undefined, p: ProductSetInput) {
  const { catalog, set } = await getProductSet(actor, db, catalogId, id);
  const changes: Partial<ProductSetRow> = {};
  if (p.name !== undefined) changes.name = p.name;
  if (p.description !== undefined) changes.description = p.description;
  if (p.filters !== undefined || p.product_keys !== undefined) {
    const current = set.type === 'MANUAL' ? { product_keys: p.product_keys } : { filters: p.filters };
    Object.assign(changes, await checkedContents(db, catalog.id, set.type, { ...p, ...current }));
  }
  if (Object.keys(changes).length === 0) return { catalog, set };
  return { catalog, set: await updateProductSetRow(db, set.id, { ...changes, updated_at: actor.ctx.clock.now().toISOString() }) };
}

/** DELETE: the set is gone; the deleted set is returned. */
export async function deleteProductSet(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, id: string | undefined) {
  const found = await getProductSet(actor, db, catalogId, id);
  await deleteProductSetRow(db, found.set.id);
  return found;
}
