import type { DbOrTx } from '../../store/store.js';
import type { AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { runList, type Sorting } from '../http/list.js';
import { wireTime } from '../http/time.js';
import { newAdsId } from '../ids.js';
import { checkProduct, orderedFields, type ProductFields, type ProductProblem } from './product-fields.js';
import {
  catalogsOf,
  deleteCatalogRow,
  deleteProductRows,
  findCatalog,
  groupKeyOf,
  insertCatalog,
  insertProduct,
  productsByIds,
  productsByKeys,
  shownProducts,
  updateCatalogRow,
  updateProductRow,
  type CatalogRow,
  type ProductRow,
} from './store.js';

/**
 * Product catalogs and their products (spec 001 "Product catalog", "Product", "Product catalogs"):
 * one catalog per user, holding all of its products; PUT products upserts up to 25 by id.
 * Catalogs belong to a user, not an ad account: each user manages only their own.
 */
export const MAX_PRODUCTS_PER_PUT = 25;
export const MAX_PRODUCT_KEYS_PER_DELETE = 1000;
const CATALOG_SORTING: Sorting = { fields: { created_at: { column: 'created_at' } }, id: 'id', default: { field: 'created_at', dir: 'asc' } };
const PRODUCT_SORTING: Sorting = { fields: { created_at: { column: 'p.created_at' } }, id: 'p.product_key', default: { field: 'created_at', dir: 'asc' } };

export const catalogWire = (c: CatalogRow) => ({ id: c.id, name: c.name });

export function productWire(p: ProductRow) {
  return {
    product_key: p.product_key,
    item_group_key: p.item_group_key,
    ...(JSON.parse(p.fields) as ProductFields),
    created_at: wireTime(p.created_at),
    updated_at: wireTime(p.updated_at),
  };
}

function checkOwnUser(actor: AdsActor, userId: string | undefined): void {
  if (userId !== undefined && userId !== actor.userId) {
    throw AdsError.forbidden('ACTION_NOT_ALLOWED', `User ${actor.userId} may manage only their own product catalog, not user ${userId}'s`);
  }
}

export function listCatalogs(actor: AdsActor, db: DbOrTx, p: { user_id?: string; count: number; cursor?: string }) {
  checkOwnUser(actor, p.user_id);
  return runList(db, catalogsOf(db, actor.env, actor.userId), CATALOG_SORTING, p);
}

/** The caller's catalog `id`; another user's is not found. */
export async function getCatalog(actor: AdsActor, db: DbOrTx, id: string | undefined): Promise<CatalogRow> {
  const row = id === undefined ? undefined : await findCatalog(db, actor.env, id);
  if (!row || row.user_id !== actor.userId) throw AdsError.notFound(`Product catalog ${id ?? ''} was not found`, 'product_catalog_id');
  return row;
}

export async function createCatalog(actor: AdsActor, db: DbOrTx, p: { name: string; user_id?: string }): Promise<CatalogRow> {
  checkOwnUser(actor, p.user_id);
  const existing = await catalogsOf(db, actor.env, actor.userId).executeTakeFirst();
  if (existing) {
    throw AdsError.invalidParameter('name', `User ${actor.userId} already has product catalog ${existing.id}; one user may create only one catalog`, 'DUPLICATE_CATALOG');
  }
  const now = actor.ctx.clock.now().toISOString();
  const row: CatalogRow = { id: newAdsId(actor.ctx), environment: actor.env, user_id: actor.userId, name: p.name, created_at: now, updated_at: now };
  await insertCatalog(db, row);
  return row;
}

export async function renameCatalog(actor: AdsActor, db: DbOrTx, id: string | undefined, name: string): Promise<CatalogRow> {
  const before = await getCatalog(actor, db, id);
  if (before.name === name) return before;
  return updateCatalogRow(db, before.id, { name, updated_at: actor.ctx.clock.now().toISOString() });
}

/** DELETE: permanent; its products and product sets go too. */
export async function deleteCatalog(actor: AdsActor, db: DbOrTx, id: string | undefined): Promise<CatalogRow> {
  const row = await getCatalog(actor, db, id);
  await deleteCatalogRow(db, row.id);
  return row;
}

export async function listProducts(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, p: { item_group_key?: string; count: number; cursor?: string }) {
  const catalog = await getCatalog(actor, db, catalogId);
  return runList(db, shownProducts(db, catalog.id, p.item_group_key), PRODUCT_SORTING, p);
}

export interface ProductResult {
  warnings: ProductProblem[];
  errors: ProductProblem[];
  product_key: string | null;
  id: string | null;
  status: 'CREATE_SUCCESS' | 'UPDATE_SUCCESS' | 'NO_CHANGE' | 'ERROR';
}

function requestBodyList(body: unknown, name: string, max: number): unknown[] {
  const list = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
  if (list === undefined || list === null) throw AdsError.missingParameter(name);
  if (!Array.isArray(list) || list.length === 0) throw AdsError.invalidParameter(name, `Expected a JSON body {"${name}": [...]} with at least one item`);
  if (list.length > max) throw AdsError.invalidParameter(name, `Expected at most ${max} items in ${name}, got ${list.length}`);
  return list;
}

/**
 * PUT products: each product created (CREATE_SUCCESS), updated (UPDATE_SUCCESS) or left as it is
 * (NO_CHANGE) by its id, or refused (ERROR) with its errors; products of one request sharing an id
 * are all ignored. Variants with the same item_group_id share one generated item_group_key.
 */
export async function upsertProducts(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, body: unknown): Promise<ProductResult[]> {
  const catalog = await getCatalog(actor, db, catalogId);
  const list = requestBodyList(body, 'products', MAX_PRODUCTS_PER_PUT);
  const checked = list.map(checkProduct);
  const idOf = (i: number) => (typeof checked[i].fields.id === 'string' ? (checked[i].fields.id as string) : null);
  const seen = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const id = idOf(i);
    if (id !== null) seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  const known = new Map((await productsByIds(db, catalog.id, [...seen.keys()])).map((p) => [p.id, p]));
  const now = actor.ctx.clock.now().toISOString();
  const results: ProductResult[] = [];
  for (let i = 0; i < list.length; i++) {
    const { fields, errors, warnings } = checked[i];
    const id = idOf(i);
    const existing = id === null ? undefined : known.get(id);
    const result = (status: ProductResult['status'], key: string | null): ProductResult => ({ warnings, errors, product_key: key, id, status });
    if (id !== null && (seen.get(id) ?? 0) > 1) {
      errors.push({ code: 'DUPLICATE_ID', message: `${seen.get(id)} products of this request share id ${id}; all of them were ignored`, parameter: 'id' });
    }
    if (errors.length > 0) {
      results.push(result('ERROR', existing?.product_key ?? null));
      continue;
    }
    const stored = JSON.stringify(orderedFields(fields));
    const groupId = typeof fields.item_group_id === 'string' ? fields.item_group_id : null;
    const groupKey = groupId === null ? null : ((await groupKeyOf(db, catalog.id, groupId)) ?? newAdsId(actor.ctx));
    if (existing) {
      if (existing.fields === stored && existing.item_group_key === groupKey) {
        results.push(result('NO_CHANGE', existing.product_key));
        continue;
      }
      await updateProductRow(db, existing.product_key, { fields: stored, item_group_id: groupId, item_group_key: groupKey, updated_at: now });
      results.push(result('UPDATE_SUCCESS', existing.product_key));
    } else {
      const row: ProductRow = { product_key: newAdsId(actor.ctx), catalog_id: catalog.id, id: id!, item_group_id: groupId, item_group_key: groupKey, fields: stored, created_at: now, updated_at: now };
      await insertProduct(db, row);
      results.push(result('CREATE_SUCCESS', row.product_key));
    }
  }
  return results;
}

/** DELETE products {product_keys}: permanent; an unknown key is reported with failed_product_key and message. */
export async function deleteProducts(actor: AdsActor, db: DbOrTx, catalogId: string | undefined, body: unknown) {
  const catalog = await getCatalog(actor, db, catalogId);
  const keys = requestBodyList(body, 'product_keys', MAX_PRODUCT_KEYS_PER_DELETE).map((k, i) => {
    if (typeof k !== 'string' || k.length === 0 || k.length > 100 || k.includes('\u0000')) throw AdsError.invalidParameter(`product_keys[${i}]`, 'Expected a product key string');
    return k;
  });
  const found = new Set((await productsByKeys(db, catalog.id, [...new Set(keys)])).map((p) => p.product_key));
  await deleteProductRows(db, catalog.id, [...found]);
  return keys.map((key) =>
    found.has(key)
      ? { product_key: key, failed_product_key: null, message: null }
      : { product_key: null, failed_product_key: key, message: `Product key ${key} was not found in product catalog ${catalog.id}` },
  );
}
