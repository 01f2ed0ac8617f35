import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { hydrate, parseSelection, ResponseReads } from '../../../src/platform/expansions.js';
import { postExpansions } from '../../../src/platform/posts/service.js';
import type { PostRow } from '../../../src/platform/posts/wire.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';

/**
 * card_uri and media_metadata are read from other rows (ads posts, media): hydrate reads them for
 * the answers that select them, and only for those (expansions.ts, withPostExtras).
 */
let plaza: TestPlaza;
before(async () => {
  plaza = await startTestPlaza();
});
after(() => plaza.close());

test('card_uri and media_metadata are read from the ads posts and media for each answer that selects them, and not at all for an answer that does not', async () => {
  const { ctx } = plaza;
  const withMedia = await ctx.store.db.selectFrom('posts').select('id').where('media_keys', '!=', '[]').where('deleted_at', 'is', null).limit(1).executeTakeFirstOrThrow();
  const [row] = (await ctx.entities.posts.read(ctx.store.db, [withMedia.id])) as PostRow[];
  const view = { now: ctx.clock.now() };
  const answer = async (fields: string) => {
    const reads = new ResponseReads(ctx);
    const asked: string[] = [];
    const cardUris = reads.cardUris.bind(reads);
    const mediaByKeys = reads.mediaByKeys.bind(reads);
    reads.cardUris = (ids) => (asked.push('card_uri'), cardUris(ids));
    reads.mediaByKeys = (keys) => (asked.push('media'), mediaByKeys(keys));
    const hydrated = await hydrate(ctx, view, [row], postExpansions, parseSelection({ 'post.fields': fields }, postExpansions), [], reads);
    return { post: JSON.parse(hydrated.post(row).text), asked };
  };
  for (let i = 0; i < 2; i++) {
    const selected = await answer('attachments,card_uri,media_metadata');
    assert.ok(selected.post.media_metadata?.length > 0, JSON.stringify(selected.post));
    assert.deepEqual(selected.asked, ['card_uri', 'media'], 'read again for each answer');
  }
  const plain = await answer('attachments');
  assert.equal(plain.post.media_metadata, undefined);
  assert.deepEqual(plain.asked, []);
});
