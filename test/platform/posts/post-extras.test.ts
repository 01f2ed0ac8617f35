import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { selectFieldsJson } from '../../../src/http/fields.js';
import { hydrate, parseSelection, ResponseReads } from '../../../src/platform/expansions.js';
import { postExpansions } from '../../../src/platform/posts/service.js';
import { postDeclaration, type PostRow } from '../../../src/platform/posts/wire.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';

/**
 * card_uri and media_metadata are read from other rows (ads posts, media). On SQLite a post's text
 * is kept with them under those rows' write generations (PostExtras.version); an answer whose
 * posts all have such a text kept reads neither again (expansions.ts, withPostExtras).
 */
const onSqlite = !process.env.DATABASE_URL;

let plaza: TestPlaza;
before(async () => {
  plaza = await startTestPlaza();
});
after(() => plaza.close());

test('a post whose text is kept with its card_uri and media_metadata is answered without reading them again, and keeps that text for the whole answer even when other answers push it out of the row', async () => {
  const { ctx } = plaza;
  const withMedia = await ctx.store.db.selectFrom('posts').select('id').where('media_keys', '!=', '[]').where('deleted_at', 'is', null).limit(1).executeTakeFirstOrThrow();
  const [row] = (await ctx.entities.posts.read(ctx.store.db, [withMedia.id])) as PostRow[];
  const selection = parseSelection(ctx, { 'post.fields': 'attachments,card_uri,media_metadata' }, postExpansions);
  const view = { now: ctx.clock.now() };

  const first = await hydrate(ctx, view, [row], postExpansions, selection);
  const expected = JSON.parse(first.post(row).text);
  assert.ok(expected.media_metadata?.length > 0, JSON.stringify(expected));

  const reads = new ResponseReads(ctx);
  const asked: string[] = [];
  const cardUris = reads.cardUris.bind(reads);
  const mediaByKeys = reads.mediaByKeys.bind(reads);
  reads.cardUris = (ids) => (asked.push('card_uri'), cardUris(ids));
  reads.mediaByKeys = (keys) => (asked.push('media'), mediaByKeys(keys));
  const second = await hydrate(ctx, view, [row], postExpansions, selection, [], reads);
  // Other answers select other fields of the same row meanwhile, each keeping a text of its own.
  for (let i = 0; i < 20; i++) selectFieldsJson(postDeclaration, row, new Set(['lang']), view);

  assert.deepEqual(JSON.parse(second.post(row).text), expected);
  // PostgreSQL keeps no version of the extras: they are read for every answer.
  assert.deepEqual(asked, onSqlite ? [] : ['card_uri', 'media']);
});
