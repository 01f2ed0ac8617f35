import { sql } from 'kysely';
import type { AdsProductCatalogTable, AdsProductSetTable, AdsProductTable } from '../../store/schema-ads-audiences.js';
import type { DbOrTx } from '../../store/store.js';

export type CatalogRow = AdsProductCatalogTable;
export type ProductRow = AdsProductTable;
export type ProductSetRow = AdsProductSetTable;

export function catalogsOf(db: DbOrTx, env: string, userId: string) {
  return db.selectFrom('ads_product_catalogs').selectAll().where('environment', '=', env).where('user_id', '=', userId);
}

export async function findCatalog(db: DbOrTx, env: string, id: string): Promise<CatalogRow | undefined> {
  return db.selectFrom('ads_product_catalogs').selectAll().where('environment', '=', env).where('id', '=', id).executeTakeFirst();
}

export async function insertCatalog(db: DbOrTx, row: CatalogRow): Promise<void> {
  await db.insertInto('ads_product_catalogs').values(row).execute();
}

export async function updateCatalogRow(db: DbOrTx, id: string, changes: Partial<CatalogRow>): Promise<CatalogRow> {
  return db.updateTable('ads_product_catalogs').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Products go with their catalog (and its product sets): deletion is permanent. */
export async function deleteCatalogRow(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('ads_product_sets').where('catalog_id', '=', id).execute();
  await db.deleteFrom('ads_products').where('catalog_id', '=', id).execute();
  await db.deleteFrom('ads_product_catalogs').where('id', '=', id).execute();
}

/** The products a fetch shows: of each product group only its first submitted product. */
export function shownProducts(db: DbOrTx, catalogId: string, itemGroupKey?: string) {
  let query = db
    .selectFrom('ads_products as p')
    .selectAll('p')
    .where('p.catalog_id', '=', catalogId)
    .where((eb) =>
      eb.or([
        eb('p.item_group_key', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('ads_products as q')
              .select(sql.lit(1).as('one'))
              .where('q.catalog_id', '=', catalogId)
              .whereRef('q.item_group_key', '=', 'p.item_group_key')
              .where((inner) =>
                inner.or([inner('q.created_at', '<', inner.ref('p.created_at')), inner.and([inner('q.created_at', '=', inner.ref('p.created_at')), inner('q.product_key', '<', inner.ref('p.product_key'))])]),
              ),
          ),
        ),
      ]),
    );
  if (itemGroupKey !== undefined) query = query.where('p.item_group_key', '=', itemGroupKey);
  return query;
}

export async function productsByIds(db: DbOrTx, catalogId: string, ids: string[]): Promise<ProductRow[]> {
  const out: ProductRow[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await db.selectFrom('ads_products').selectAll().where('catalog_id', '=', catalogId).where('id', 'in', ids.slice(i, i + 500)).execute()));
  return out;
}

export async function productsByKeys(db: DbOrTx, catalogId: string, keys: string[]): Promise<ProductRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('ads_products').selectAll().where('catalog_id', '=', catalogId).where('product_key', 'in', keys).execute();
}

export async function allProducts(db: DbOrTx, catalogId: string): Promise<ProductRow[]> {
  return db.selectFrom('ads_products').selectAll().where('catalog_id', '=', catalogId).orderBy('created_at').orderBy('product_key').execute();
}

export async function groupKeyOf(db: DbOrTx, catalogId: string, itemGroupId: string): Promise<string | undefined> {
  const row = await db.selectFrom('ads_products').select('item_group_key').where('catalog_id', '=', catalogId).where('item_group_id', '=', itemGroupId).where('item_group_key', 'is not', null).executeTakeFirst();
  return row?.item_group_key ?? undefined;
}

export async function insertProduct(db: DbOrTx, row: ProductRow): Promise<void> {
  await db.insertInto('ads_products').values(row).execute();
}

export async function updateProductRow(db: DbOrTx, key: string, changes: Partial<ProductRow>): Promise<void> {
  await db.updateTable('ads_products').set(changes).where('product_key', '=', key).execute();
}

export async function deleteProductRows(db: DbOrTx, catalogId: string, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) await db.deleteFrom('ads_products').where('catalog_id', '=', catalogId).where('product_key', 'in', keys.slice(i, i + 500)).execute();
}

export function productSetsOf(db: DbOrTx, catalogId: string) {
  return db.selectFrom('ads_product_sets').selectAll().where('catalog_id', '=', catalogId);
}

export async function findProductSet(db: DbOrTx, catalogId: string, id: string): Promise<ProductSetRow | undefined> {
  return productSetsOf(db, catalogId).where('id', '=', id).executeTakeFirst();
}

export async function insertProductSet(db: DbOrTx, row: ProductSetRow): Promise<void> {
  await db.insertInto('ads_product_sets').values(row).execute();
}

export async function updateProductSetRow(db: DbOrTx, id: string, changes: Partial<ProductSetRow>): Promise<ProductSetRow> {
  return db.updateTable('ads_product_sets').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteProductSetRow(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('ads_product_sets').where('id', '=', id).execute();
}
