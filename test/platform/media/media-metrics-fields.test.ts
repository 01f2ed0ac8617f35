import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { selectFieldsJson } from '../../../src/http/fields.js';
import { mediaDeclaration, type MediaRow } from '../../../src/platform/media/wire.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { mp4 } from '../../support/media-files.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/**
 * media.fields non_public_metrics, organic_metrics and promoted_metrics (components.schemas
 * Media): playback quartile counts of a video, for its uploader only; promoted for media shown
 * only in promoted-only posts, organic otherwise.
 */

let plaza: TestPlaza;
let p: Fixtures;
let ada: { bearer: string }, chen: { bearer: string };
let key: string;
let postId: string;
const PRIVATE = 'media.fields=non_public_metrics,organic_metrics,promoted_metrics';

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  ada = await p.selfServeAs('ada');
  chen = await p.selfServeAs('chen');
  const up = await p.send('POST', '/2/media/upload', { auth: ada, body: { media: mp4({ width: 320, height: 240, durationMs: 4000 }).toString('base64'), media_category: 'post_video' } });
  assert.equal(up.status, 200, up.text);
  key = up.body.data.media_key;
  const post = await p.post(ada, { text: 'A clip', media: { media_ids: [up.body.data.id] } });
  postId = post.body.data.id;
  // A post lookup by someone else is a view; a fetch of the file, a playback to the end.
  assert.equal((await p.get(`/2/posts/${postId}`, { auth: chen })).status, 200);
  const file = await p.get(`/2/media/${key}?media.fields=url`, { auth: ada });
  const fetched = await fetch(file.body.data.url);
  assert.equal(fetched.status, 200);
  await fetched.arrayBuffer();
});

const row = async (): Promise<MediaRow> => plaza.ctx.store.db.selectFrom('media').selectAll().where('media_key', '=', key).executeTakeFirstOrThrow();
const fields = new Set(['non_public_metrics', 'organic_metrics', 'promoted_metrics']);
const render = async (viewerId: string | undefined) => {
  const m = await row();
  const view = await mediaDeclaration.withViewData(plaza.ctx.store.db, { viewerId, now: plaza.ctx.clock.now() }, fields, [m]);
  return JSON.parse(selectFieldsJson(mediaDeclaration, m, fields, view).text);
};
const adaId = () => p.user('ada').id;

test('"non_public_metrics" and "organic_metrics" are the uploader\'s: playback quartile counts from what Plaza recorded; organic adds the view count; no promoted_metrics for an organic post', async () => {
  const m = await row();
  const out = await render(adaId());
  const plays = { playback_0_count: 1, playback_25_count: 1, playback_50_count: 1, playback_75_count: 1, playback_100_count: 1 };
  // No promoted_metrics for an organic post.
  assert.deepEqual(out, { media_key: key, type: 'video', non_public_metrics: plays, organic_metrics: { ...plays, view_count: m.view_count } });
});

test('others and app-only callers: the owner-only media fields are left out', async () => {
  for (const viewer of [p.user('chen').id, undefined]) {
    const out = await render(viewer);
    assert.deepEqual(Object.keys(out).sort(), ['media_key', 'type'], String(viewer));
  }
});

test('"promoted_metrics": media shown only in promoted-only posts have promoted counts and zero organic ones', async () => {
  const db = plaza.ctx.store.db;
  await db.updateTable('posts').set({ nullcast: 1 }).where('id', '=', postId).execute();
  try {
    const m = await row();
    const out = await render(adaId());
    const plays = { playback_0_count: 1, playback_25_count: 1, playback_50_count: 1, playback_75_count: 1, playback_100_count: 1 };
    assert.deepEqual(out, {
      media_key: key,
      type: 'video',
      non_public_metrics: plays,
      organic_metrics: { playback_0_count: 0, playback_25_count: 0, playback_50_count: 0, playback_75_count: 0, playback_100_count: 0, view_count: 0 },
      promoted_metrics: { ...plays, view_count: m.view_count },
    });
  } finally {
    await db.updateTable('posts').set({ nullcast: 0 }).where('id', '=', postId).execute();
  }
});

test('GET /2/media/{media_key}: the private media.fields are accepted; for someone else\'s media they are left out', async () => {
  const others = await p.get(`/2/media/${key}?${PRIVATE}`, { auth: chen });
  assert.equal(others.status, 200, others.text);
  assert.deepEqual(others.body.data, { media_key: key, type: 'video' });
});

test('GET /2/media/{media_key} and expansions=attachments.media_keys: the uploader sees non_public_metrics', async () => {
  const mine = await p.get(`/2/media/${key}?${PRIVATE}`, { auth: ada });
  assert.equal(mine.status, 200, mine.text);
  assert.equal(mine.body.data.non_public_metrics?.playback_0_count, 1, JSON.stringify(mine.body));
  const viaPost = await p.get(`/2/posts/${postId}?expansions=attachments.media_keys&${PRIVATE}`, { auth: ada });
  assert.equal(viaPost.body.includes.media[0].non_public_metrics?.playback_100_count, 1, JSON.stringify(viaPost.body));
});
