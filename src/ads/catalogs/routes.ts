import { Type } from '@sinclair/typebox';
import { count, cursor } from '../http/list.js';
import { oneOf, platformId, text } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import {
  PRODUCT_SET_TYPES,
  ProductSetSchema,
  createProductSet,
  deleteProductSet,
  getProductSet,
  listProductSets,
  productSetInput,
  productSetsWire,
  updateProductSet,
} from './product-sets.js';
import {
  CatalogSchema,
  ProductSchema,
  catalogWire,
  createCatalog,
  deleteCatalog,
  deleteProducts,
  getCatalog,
  listCatalogs,
  listProducts,
  productWire,
  renameCatalog,
  upsertProducts,
} from './service.js';

/**
 * Product catalogs, products and product sets: not under an account (spec 001 "Product catalogs").
 * Reads are limited per user and endpoint like other reads (2,000 per 15 minutes).
 */
export function catalogRoutes(ads: AdsRoutes): void {
  const base = '/product_catalogs';
  const catalog = `${base}/:product_catalog_id`;
  const catalogId = (call: { path: Record<string, string> }) => pathId(call, 'product_catalog_id');

  ads.route({
    method: 'GET',
    url: base,
    rate: 'account-read',
    params: { user_id: platformId(), count: count(), cursor: cursor() },
    response: Type.Array(CatalogSchema),
    handler: async (call) => page(await listCatalogs(call.actor, call.db, call.params), catalogWire),
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: { name: text({ max: 255 }).required(), user_id: platformId() },
    response: CatalogSchema,
    handler: async (call) => one(catalogWire(await createCatalog(call.actor, call.db, call.params))),
  });

  ads.route({
    method: 'GET',
    url: catalog,
    rate: 'account-read',
    params: {},
    response: CatalogSchema,
    handler: async (call) => one(catalogWire(await getCatalog(call.actor, call.db, catalogId(call)))),
  });

  ads.route({
    method: 'PUT',
    url: catalog,
    rate: 'write',
    params: { name: text({ max: 255 }).required() },
    response: CatalogSchema,
    handler: async (call) => one(catalogWire(await renameCatalog(call.actor, call.db, catalogId(call), call.params.name))),
  });

  ads.route({
    method: 'DELETE',
    url: catalog,
    rate: 'write',
    params: {},
    response: CatalogSchema,
    handler: async (call) => one(catalogWire(await deleteCatalog(call.actor, call.db, catalogId(call)))),
  });

  ads.route({
    method: 'GET',
    url: `${catalog}/products`,
    rate: 'account-read',
    params: { item_group_key: text({ max: 100 }), count: count({ max: 100, default: 100 }), cursor: cursor() },
    response: Type.Array(ProductSchema),
    handler: async (call) => page(await listProducts(call.actor, call.db, catalogId(call), call.params), productWire),
  });

  ads.route({
    method: 'PUT',
    url: `${catalog}/products`,
    rate: 'write',
    params: {},
    handler: async (call) => one({ products_response: await upsertProducts(call.actor, call.db, catalogId(call), call.body) }),
  });

  ads.route({
    method: 'DELETE',
    url: `${catalog}/products`,
    rate: 'write',
    params: {},
    handler: async (call) => one({ delete_products: await deleteProducts(call.actor, call.db, catalogId(call), call.body) }),
  });

  const sets = `${catalog}/product_sets`;
  ads.route({
    method: 'GET',
    url: sets,
    rate: 'account-read',
    params: {},
    response: Type.Array(ProductSetSchema),
    handler: async (call) => {
      const { catalog: c, sets: rows } = await listProductSets(call.actor, call.db, catalogId(call));
      return { next_cursor: null, data: await productSetsWire(call.db, c.id, rows) };
    },
  });

  ads.route({
    method: 'GET',
    url: `${sets}/:product_set_id`,
    rate: 'account-read',
    params: {},
    response: ProductSetSchema,
    handler: async (call) => {
      const { catalog: c, set } = await getProductSet(call.actor, call.db, catalogId(call), pathId(call, 'product_set_id'));
      return one((await productSetsWire(call.db, c.id, [set]))[0]);
    },
  });

  ads.route({
    method: 'POST',
    url: sets,
    rate: 'write',
    params: { name: text({ max: 255 }).required(), type: oneOf(PRODUCT_SET_TYPES).required(), description: text({ max: 1000 }) },
    response: ProductSetSchema,
    handler: async (call) => {
      const { catalog: c, set } = await createProductSet(call.actor, call.db, catalogId(call), { ...productSetInput(call.params, call.body), name: call.params.name, type: call.params.type });
      return one((await productSetsWire(call.db, c.id, [set]))[0]);
    },
  });

  ads.route({
    method: 'PUT',
    url: `${sets}/:product_set_id`,
    rate: 'write',
    params: { name: text({ max: 255 }), description: text({ max: 1000 }).nullable() },
    response: ProductSetSchema,
    handler: async (call) => {
      const { catalog: c, set } = await updateProductSet(call.actor, call.db, catalogId(call), pathId(call, 'product_set_id'), productSetInput(call.params, call.body));
      return one((await productSetsWire(call.db, c.id, [set]))[0]);
    },
  });

  ads.route({
    method: 'DELETE',
    url: `${sets}/:product_set_id`,
    rate: 'write',
    params: {},
    response: ProductSetSchema,
    handler: async (call) => {
      const { catalog: c, set } = await deleteProductSet(call.actor, call.db, catalogId(call), pathId(call, 'product_set_id'));
      return one((await productSetsWire(call.db, c.id, [set]))[0]);
    },
  });
}
