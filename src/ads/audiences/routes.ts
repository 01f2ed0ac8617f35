import { Type } from '@sinclair/typebox';
import { count, cursor, flag, q, sortBy, standardList } from '../http/list.js';
import { bool, idList, oneOf, text } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { MAX_BATCH_BODY_BYTES } from './batch.js';
import {
  AUDIENCE_SORTING,
  PERMISSION_SORTING,
  audiencesWire,
  createAudience,
  deleteAudience,
  getAudience,
  grantPermission,
  listAudiences,
  listPermissions,
  revokePermission,
  targetedBy,
  updateAudience,
  uploadAudienceUsers,
} from './service.js';
import { CustomAudienceSchema, PERMISSION_LEVELS, PermissionSchema, TargetedCampaignSchema, permissionWire } from './wire.js';

/** Custom audiences, their users batch, where they are targeted, and their permissions (version 5). */
export function audienceRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/custom_audiences';
  const now = () => ads.ctx.clock.now();

  ads.route({
    method: 'GET',
    url: base,
    rate: 'account-read',
    params: { custom_audience_ids: idList(), q: q(), ...standardList(Object.keys(AUDIENCE_SORTING.fields)) },
    response: Type.Array(CustomAudienceSchema),
    handler: async (call) => {
      const p = await listAudiences(call.db, call.account, call.params);
      return { next_cursor: p.next_cursor, data: await audiencesWire(call.db, p.rows, call.account, now()), ...(p.total_count !== undefined ? { total_count: p.total_count } : {}) };
    },
  });

  ads.route({
    method: 'GET',
    url: `${base}/:custom_audience_id`,
    rate: 'account-read',
    params: { with_deleted: flag() },
    response: CustomAudienceSchema,
    handler: async (call) => {
      const row = await getAudience(call.db, call.account, pathId(call, 'custom_audience_id'), call.params.with_deleted);
      return one((await audiencesWire(call.db, [row], call.account, now()))[0]);
    },
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: { name: text({ max: 255 }).required(), description: text({ max: 1000 }) },
    response: CustomAudienceSchema,
    handler: async (call) => one((await audiencesWire(call.db, [await createAudience(call.actor, call.db, call.account, call.params)], call.account, now()))[0]),
  });

  ads.route({
    method: 'PUT',
    url: `${base}/:custom_audience_id`,
    rate: 'write',
    params: { name: text({ max: 255 }), description: text({ max: 1000 }).nullable() },
    response: CustomAudienceSchema,
    handler: async (call) => {
      const row = await updateAudience(call.actor, call.db, call.account, pathId(call, 'custom_audience_id'), call.params);
      return one((await audiencesWire(call.db, [row], call.account, now()))[0]);
    },
  });

  ads.route({
    method: 'DELETE',
    url: `${base}/:custom_audience_id`,
    rate: 'write',
    params: {},
    response: CustomAudienceSchema,
    handler: async (call) => {
      const row = await deleteAudience(call.actor, call.db, call.account, pathId(call, 'custom_audience_id'));
      return one((await audiencesWire(call.db, [row], call.account, now()))[0]);
    },
  });

  ads.route({
    method: 'POST',
    url: `${base}/:custom_audience_id/users`,
    rate: 'audience-users',
    bodyLimit: MAX_BATCH_BODY_BYTES,
    params: {},
    handler: async (call) => ({ data: await uploadAudienceUsers(call.actor, call.db, call.account, pathId(call, 'custom_audience_id'), call.body, call.contentType) }),
  });

  ads.route({
    method: 'GET',
    url: `${base}/:custom_audience_id/targeted`,
    rate: 'account-read',
    params: { with_active: bool().default(true), count: count(), cursor: cursor() },
    response: Type.Array(TargetedCampaignSchema),
    handler: async (call) => targetedBy(call.db, call.account, pathId(call, 'custom_audience_id'), call.params, now()),
  });

  const permissions = '/accounts/:account_id/tailored_audiences/:tailored_audience_id/permissions';
  ads.route({
    method: 'GET',
    version: 5,
    url: permissions,
    rate: 'account-read',
    params: {
      count: count(),
      cursor: cursor(),
      granted_account_ids: idList(),
      tailored_audience_permission_ids: idList(),
      sort_by: sortBy(Object.keys(PERMISSION_SORTING.fields)),
      with_total_count: flag(),
    },
    response: Type.Array(PermissionSchema),
    handler: async (call) => page(await listPermissions(call.db, call.account, pathId(call, 'tailored_audience_id'), call.params), permissionWire),
  });

  ads.route({
    method: 'POST',
    version: 5,
    url: permissions,
    rate: 'write',
    params: { granted_account_id: text({ pattern: /^[0-9a-z]{1,40}$/, patternText: 'an account id' }).required(), permission_level: oneOf(PERMISSION_LEVELS).required() },
    response: PermissionSchema,
    handler: async (call) => one(permissionWire(await grantPermission(call.actor, call.db, call.account, pathId(call, 'tailored_audience_id'), call.params))),
  });

  ads.route({
    method: 'DELETE',
    version: 5,
    url: `${permissions}/:tailored_audience_permission_id`,
    rate: 'write',
    params: {},
    response: PermissionSchema,
    handler: async (call) =>
      one(permissionWire(await revokePermission(call.actor, call.db, call.account, pathId(call, 'tailored_audience_id'), pathId(call, 'tailored_audience_permission_id')))),
  });
}
