import { Type } from '@sinclair/typebox';
import { flag, standardList } from '../http/list.js';
import { adsId, idList, PLATFORM_ID, platformId } from '../http/params.js';
import { IdAsNumber } from '../http/json-numbers.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import {
  MAX_POSTS_PER_REQUEST,
  getPromotableUser,
  listPromotableUsers,
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
import { PROMOTABLE_USER_SORTING } from './store.js';
import { PromotableUserSchema, promotableUserWire, PromotedAccountSchema, promotedAccountWire, PromotedPostSchema, promotedPostWire } from './wire.js';

/**
 * Promoted posts (post_ids, post_id; the public platform's promoted_tweets, tweet_ids and tweet_id
 * are translated at the edge, src/ads/http/dialect.ts) and promoted accounts.
 */
export function promotedRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/promoted_posts';

  ads.route({
    method: 'GET',
    url: base,
    rate: 'entity-read',
    params: { line_item_ids: idList(), promoted_post_ids: idList(), ...standardList(Object.keys(PROMOTED_POST_SORTING.fields)) },
    response: Type.Array(PromotedPostSchema),
    handler: async (call) => page(await listPromotedPosts(call.db, call.account, call.params), promotedPostWire),
  });

  ads.route({
    method: 'GET',
    url: `${base}/:promoted_post_id`,
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: PromotedPostSchema,
    handler: async (call) => one(promotedPostWire(await getPromotedPost(call.db, call.account, pathId(call, 'promoted_post_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: {
      line_item_id: adsId().required(),
      // Echoed as numbers, as the public platform writes them here.
      post_ids: idList({ max: MAX_POSTS_PER_REQUEST, pattern: PLATFORM_ID, patternText: 'Long' })
        .echoAs((ids) => ids.map((id) => new IdAsNumber(id)))
        .required(),
    },
    response: Type.Array(PromotedPostSchema),
    handler: async (call) => {
      const rows = await promotePosts(call.actor, call.db, call.account, call.params);
      // The public platform answers this one with an array and its total_count.
      return { data: rows.map(promotedPostWire), total_count: rows.length };
    },
  });

  ads.route({
    method: 'DELETE',
    url: `${base}/:promoted_post_id`,
    rate: 'write',
    params: {},
    response: PromotedPostSchema,
    handler: async (call) => one(promotedPostWire(await deletePromotedPost(call.actor, call.db, call.account, pathId(call, 'promoted_post_id')))),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/promoted_accounts',
    rate: 'entity-read',
    params: { line_item_ids: idList(), promoted_account_ids: idList(), ...standardList(Object.keys(PROMOTED_ACCOUNT_SORTING.fields)) },
    response: Type.Array(PromotedAccountSchema),
    handler: async (call) => page(await listPromotedAccounts(call.db, call.account, call.params), promotedAccountWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/promoted_accounts/:promoted_account_id',
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: PromotedAccountSchema,
    handler: async (call) => one(promotedAccountWire(await getPromotedAccount(call.db, call.account, pathId(call, 'promoted_account_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/promoted_accounts',
    rate: 'write',
    params: { line_item_id: adsId().required(), user_id: platformId().required() },
    response: PromotedAccountSchema,
    handler: async (call) => one(promotedAccountWire(await promoteAccount(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/promoted_accounts/:promoted_account_id',
    rate: 'write',
    params: {},
    response: PromotedAccountSchema,
    handler: async (call) => one(promotedAccountWire(await deletePromotedAccount(call.actor, call.db, call.account, pathId(call, 'promoted_account_id')))),
  });

  // The users whose posts the account may promote (the public platform's promotable_users).
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/promotable_users',
    rate: 'entity-read',
    params: { promotable_user_ids: idList(), ...standardList(Object.keys(PROMOTABLE_USER_SORTING.fields)) },
    response: Type.Array(PromotableUserSchema),
    handler: async (call) => page(await listPromotableUsers(call.db, call.account, call.params), promotableUserWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/promotable_users/:promotable_user_id',
    rate: 'entity-read',
    params: {},
    response: PromotableUserSchema,
    handler: async (call) => one(promotableUserWire(await getPromotableUser(call.db, call.account, call.path.promotable_user_id))),
  });
}
