import { flag, standardList } from '../http/list.js';
import { adsId, idList, PLATFORM_ID, platformId } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import {
  MAX_POSTS_PER_REQUEST,
  PROMOTED_ACCOUNT_SORTING,
  PROMOTED_POST_SORTING,
  deletePromotedAccount,
  deletePromotedPost,
  getPromotedAccount,
  getPromotedPost,
  listPromotedAccounts,
  listPromotedPosts,
  promoteAccount,
  promotePosts,
} from './service.js';
import { promotedAccountWire, promotedPostWire, type Dialect } from './wire.js';

/**
 * Promoted posts at /promoted_posts (post_ids, post_id), and at /promoted_tweets with the public
 * platform's names (tweet_ids, tweet_id) so the official SDKs work; and promoted accounts.
 */
export function promotedRoutes(ads: AdsRoutes): void {
  for (const dialect of ['post', 'tweet'] as Dialect[]) {
    const base = `/accounts/:account_id/promoted_${dialect}s`;
    const idParam = `promoted_${dialect}_id`;
    const wire = (row: Parameters<typeof promotedPostWire>[0]) => promotedPostWire(row, dialect);

    ads.route({
      method: 'GET',
      url: base,
      rate: 'entity-read',
      params: { line_item_ids: idList(), [`promoted_${dialect}_ids`]: idList(), ...standardList(Object.keys(PROMOTED_POST_SORTING.fields)) },
      handler: async (call) => {
        const p = call.params as typeof call.params & Record<string, string[] | undefined>;
        return page(await listPromotedPosts(call.db, call.account, { ...p, promoted_post_ids: p[`promoted_${dialect}_ids`] }), wire);
      },
    });

    ads.route({
      method: 'GET',
      url: `${base}/:${idParam}`,
      rate: 'entity-read',
      params: { with_deleted: flag() },
      handler: async (call) => one(wire(await getPromotedPost(call.db, call.account, pathId(call, idParam), call.params.with_deleted, idParam))),
    });

    const postIds = `${dialect}_ids`;
    ads.route({
      method: 'POST',
      url: base,
      rate: 'write',
      params: { line_item_id: adsId().required(), [postIds]: idList({ max: MAX_POSTS_PER_REQUEST, pattern: PLATFORM_ID, patternText: 'Long' }).required() },
      handler: async (call) => {
        const ids = (call.params as Record<string, unknown>)[postIds] as string[];
        const rows = await promotePosts(call.actor, call.db, call.account, { line_item_id: call.params.line_item_id, post_ids: ids }, postIds);
        // The public platform answers this one with an array and its total_count.
        return { data: rows.map(wire), total_count: rows.length };
      },
    });

    ads.route({
      method: 'DELETE',
      url: `${base}/:${idParam}`,
      rate: 'write',
      params: {},
      handler: async (call) => one(wire(await deletePromotedPost(call.actor, call.db, call.account, pathId(call, idParam), idParam))),
    });
  }

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/promoted_accounts',
    rate: 'entity-read',
    params: { line_item_ids: idList(), promoted_account_ids: idList(), ...standardList(Object.keys(PROMOTED_ACCOUNT_SORTING.fields)) },
    handler: async (call) => page(await listPromotedAccounts(call.db, call.account, call.params), promotedAccountWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/promoted_accounts/:promoted_account_id',
    rate: 'entity-read',
    params: { with_deleted: flag() },
    handler: async (call) => one(promotedAccountWire(await getPromotedAccount(call.db, call.account, pathId(call, 'promoted_account_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/promoted_accounts',
    rate: 'write',
    params: { line_item_id: adsId().required(), user_id: platformId().required() },
    handler: async (call) => one(promotedAccountWire(await promoteAccount(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/promoted_accounts/:promoted_account_id',
    rate: 'write',
    params: {},
    handler: async (call) => one(promotedAccountWire(await deletePromotedAccount(call.actor, call.db, call.account, pathId(call, 'promoted_account_id')))),
  });
}
