import { Type } from '@sinclair/typebox';
import { COMPOSE_PERMISSIONS } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { count, cursor, flag, sortBy, standardList } from '../http/list.js';
import { Param, PLATFORM_ID, bool, idList, listItems, oneOf, platformId, text, time } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { SCHEDULED_SORTING, createScheduled, deleteScheduled, getScheduled, listScheduled, updateScheduledPost, type PostKind } from './scheduled.js';
import {
  CONVERSATION_SETTINGS,
  MAX_POST_NAME,
  MAX_VIDEO_DESCRIPTION,
  MAX_VIDEO_TITLE,
  VIDEO_CTAS,
  createAdsPost,
  getAdsPost,
  listAdsPosts,
  renameAdsPost,
} from './service.js';
import { ADS_POST_SORTING } from './store.js';
import { AdsPostSchema, CreatedAdsPostSchema, DraftPostSchema, ListedPostSchema, ScheduledPostSchema, adsPostWire, draftPostWire, fullAdsPostWire, scheduledPostWire } from './wire.js';

/** media_keys: comma-separated media keys (at most 4 are ever valid). */
function mediaKeys(): Param<string[]> {
  return new Param((raw, name) => {
    const items = listItems(raw, name);
    if (items.length === 0) throw AdsError.invalidParameter(name, `Expected at least one media key for ${name}`);
    if (items.length > 4) throw AdsError.invalidParameter(name, `${name} may hold up to 4 images, or 1 GIF, or 1 video; got ${items.length} keys`);
    const bad = items.find((k) => !/^[0-9]{1,3}_[0-9]{1,19}$/.test(k));
    if (bad !== undefined) throw AdsError.invalidParameter(name, `Expected media keys such as 3_1234, got ${JSON.stringify(bad.slice(0, 100))} for ${name}`);
    return items;
  });
}

/**
 * Posts through the advertising interface (…/post, …/posts/:post_id/name, scheduled_posts,
 * draft_posts; the public platform's …/tweet, tweet_mode, scheduled_tweets... are translated at
 * the edge, src/ads/http/dialect.ts).
 */
export function adsPostRoutes(ads: AdsRoutes): void {
  const account = '/accounts/:account_id';
  // A path id of another shape than a post id is simply not found.
  const postIdOf = (call: { path: Record<string, string> }) => (PLATFORM_ID.test(call.path.post_id) ? call.path.post_id : undefined);

  ads.route({
    method: 'POST',
    url: `${account}/post`,
    rate: 'write',
    writePermissions: COMPOSE_PERMISSIONS,
    params: {
      as_user_id: platformId().required(),
      text: text({ trim: false }),
      card_uri: text({ max: 100 }),
      conversation_settings: oneOf(CONVERSATION_SETTINGS),
      media_keys: mediaKeys(),
      name: text({ max: MAX_POST_NAME }),
      nullcast: bool().default(true),
      trim_user: bool().default(false),
      post_mode: oneOf(['compat', 'extended'] as const),
      video_cta: oneOf(VIDEO_CTAS),
      video_cta_value: text({ max: 2048 }),
      video_description: text({ max: MAX_VIDEO_DESCRIPTION }),
      video_title: text({ max: MAX_VIDEO_TITLE }),
    },
    response: CreatedAdsPostSchema,
    handler: async (call) => {
      const made = await createAdsPost(call.actor, call.db, call.account, { ...call.params, source: call.caller.app.name });
      // conversation_settings is not in this response (spec 001); GET and the name update show it.
      return one(adsPostWire(made, { mode: call.params.post_mode, trimUser: call.params.trim_user }));
    },
  });

  ads.route({
    method: 'PUT',
    url: `${account}/posts/:post_id/name`,
    rate: 'write',
    writePermissions: COMPOSE_PERMISSIONS,
    params: { name: text({ max: MAX_POST_NAME }).nullable() },
    response: AdsPostSchema,
    handler: async (call) => one(fullAdsPostWire(await renameAdsPost(call.actor, call.db, call.account, postIdOf(call), call.params.name))),
  });

  ads.route({
    method: 'GET',
    url: `${account}/posts`,
    rate: 'entity-read',
    params: {
      // The public platform's `tweet_type`: which of the account's posts (published, scheduled or draft).
      post_type: oneOf(['DRAFT', 'PUBLISHED', 'SCHEDULED'] as const).required(),
      timeline_type: oneOf(['ALL', 'NULLCAST', 'ORGANIC'] as const).default('NULLCAST'),
      user_id: platformId(),
      name: text({ max: 80 }),
      // Post ids for PUBLISHED; the scheduled or draft posts' own ids for the others.
      post_ids: idList(),
      count: count(),
      cursor: cursor(),
      sort_by: sortBy(Object.keys(ADS_POST_SORTING.fields)),
      with_total_count: flag(),
      trim_user: bool().default(false),
    },
    response: Type.Array(ListedPostSchema),
    handler: async (call) => {
      const p = call.params;
      const notPostId = p.post_type === 'PUBLISHED' ? p.post_ids?.find((id) => !PLATFORM_ID.test(id)) : undefined;
      if (notPostId !== undefined) throw AdsError.invalidParameter('post_ids', `Expected Long, got ${JSON.stringify(notPostId)} for post_ids`);
      if (p.post_type === 'PUBLISHED') return page(await listAdsPosts(call.db, call.account, p), (post) => fullAdsPostWire(post, p.trim_user));
      // Scheduled and draft posts are not posts yet: their own objects, marked with their type.
      const kind: PostKind = p.post_type === 'SCHEDULED' ? 'scheduled' : 'draft';
      const wire = kind === 'scheduled' ? scheduledPostWire : draftPostWire;
      return page(await listScheduled(call.db, call.account, kind, { ...p, ids: p.post_ids }), (row) => ({ ...wire(row), post_type: p.post_type }));
    },
  });

  ads.route({
    method: 'GET',
    url: `${account}/posts/:post_id`,
    rate: 'entity-read',
    params: { trim_user: flag() },
    response: AdsPostSchema,
    handler: async (call) => one(fullAdsPostWire(await getAdsPost(call.db, call.account, postIdOf(call)), call.params.trim_user)),
  });

  for (const kind of ['scheduled', 'draft'] as PostKind[]) {
    const base = `${account}/${kind}_posts`;
    const pathName = `${kind}_post_id`;
    const wire = kind === 'scheduled' ? scheduledPostWire : draftPostWire;
    const schema = kind === 'scheduled' ? ScheduledPostSchema : DraftPostSchema;
    const content = (update: boolean) => ({
      as_user_id: update ? platformId() : platformId().required(),
      text: text({ trim: false }).nullable(),
      card_uri: text({ max: 100 }).nullable(),
      media_keys: mediaKeys().nullable(),
      nullcast: bool(),
      name: text({ max: MAX_POST_NAME }).nullable(),
      ...(kind === 'scheduled' ? { scheduled_at: update ? time() : time().required() } : {}),
    });

    ads.route({
      method: 'GET',
      url: base,
      rate: 'entity-read',
      params: { [`${kind}_post_ids`]: idList(), user_id: platformId(), ...standardList(Object.keys(SCHEDULED_SORTING.fields)) },
      response: Type.Array(schema),
      handler: async (call) => {
        const ids = (call.params as Record<string, unknown>)[`${kind}_post_ids`] as string[] | undefined;
        return page(await listScheduled(call.db, call.account, kind, { ...call.params, ids }), wire);
      },
    });
    ads.route({
      method: 'GET',
      url: `${base}/:${pathName}`,
      rate: 'entity-read',
      params: {},
      response: schema,
      handler: async (call) => one(wire(await getScheduled(call.db, call.account, kind, pathId(call, pathName)))),
    });
    ads.route({
      method: 'POST',
      url: base,
      rate: 'write',
      writePermissions: COMPOSE_PERMISSIONS,
      params: content(false),
      response: schema,
      handler: async (call) => one(wire(await createScheduled(call.actor, call.db, call.account, kind, call.params as typeof call.params & { as_user_id: string }))),
    });
    ads.route({
      method: 'PUT',
      url: `${base}/:${pathName}`,
      rate: 'write',
      writePermissions: COMPOSE_PERMISSIONS,
      params: content(true),
      response: schema,
      handler: async (call) => one(wire(await updateScheduledPost(call.actor, call.db, call.account, kind, pathId(call, pathName), call.params))),
    });
    ads.route({
      method: 'DELETE',
      url: `${base}/:${pathName}`,
      rate: 'write',
      writePermissions: COMPOSE_PERMISSIONS,
      params: {},
      response: schema,
      handler: async (call) => one(wire(await deleteScheduled(call.db, call.account, kind, pathId(call, pathName)))),
    });
  }
}
