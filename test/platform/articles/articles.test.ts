import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

/** Articles (spec 000 release history, Jun 11, 2026): POST /2/articles/draft and POST /2/articles/{article_id}/publish. */

const clock = new ManualClock();
let plaza: TestPlaza;
let p: Fixtures;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  p = fixtures(plaza);
});

const block = (text: string, extra: Record<string, unknown> = {}) => ({ text, type: 'unstyled', ...extra });

function draftBody(title: string, extra: Record<string, unknown> = {}) {
  return {
    title,
    content_state: {
      blocks: [{ text: 'Why self-host', type: 'header-one' }, block('Plaza runs on one machine and scales out with PostgreSQL.'), block(' ', { type: 'atomic', entity_ranges: [{ key: 0, offset: 0, length: 1 }] })],
      entities: [{ key: '0', value: { type: 'divider', mutability: 'immutable', data: {} } }],
    },
    ...extra,
  };
}

const draft = (auth: { bearer: string }, body: unknown) => p.send('POST', '/2/articles/draft', { auth, body });
const publish = (auth: { bearer: string }, id: string) => p.send('POST', `/2/articles/${id}/publish`, { auth });

async function counts() {
  const db = plaza.ctx.store.db;
  const articles = await db.selectFrom('articles').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const posts = await db.selectFrom('posts').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { articles: Number(articles.n), posts: Number(posts.n) };
}

test('POST /2/articles/draft answers 201 with data {id, title}; the draft belongs to its author and publishes nothing yet', async () => {
  const before = await counts();
  const res = await draft(await p.selfServeAs('ada'), draftBody('Self-hosting a social platform'));
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(normalise(res.body), { data: { id: '<id:1>', title: 'Self-hosting a social platform' } });
  const row = await plaza.ctx.store.db.selectFrom('articles').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
  assert.equal(row.author_id, p.user('ada').id);
  assert.equal(row.post_id, null);
  assert.deepEqual(await counts(), { articles: before.articles + 1, posts: before.posts });
});

test('publishing creates the article\'s post through post creation (post.create event, the author\'s timeline, search) and links it; the post\'s `article` field shows the article', async () => {
  const auth = await p.selfServeAs('ada');
  const cover = await p.uploadPng(auth);
  const image = await p.uploadPng(auth, 20, 20);
  const body = draftBody('Zanzibarian field notes', { cover_media: { media_id: cover.id, media_category: 'tweet_image' } });
  body.content_state.blocks.push(block(' ', { type: 'atomic', entity_ranges: [{ key: 1, offset: 0, length: 1 }] }));
  body.content_state.entities.push({ key: '1', value: { type: 'image', mutability: 'immutable', data: { media_items: [{ media_id: image.id, media_category: 'tweet_image' }] } as any } });
  const drafted = await draft(auth, body);
  assert.equal(drafted.status, 201, drafted.text);

  const seq = await p.lastSeq();
  const res = await publish(auth, drafted.body.data.id);
  assert.equal(res.status, 200, res.text);
  const postId = res.body.data.post_id;
  assert.deepEqual(normalise(res.body, { [drafted.body.data.id]: 'article' }), { data: { post_id: '<id:1>' } });

  const events = await p.eventsSince(seq, 'post.create');
  assert.equal(events.length, 1, 'one post.create event');
  assert.equal(events[0].subject, postId);
  assert.equal(events[0].payload.article.title, 'Zanzibarian field notes');

  const row = await plaza.ctx.store.db.selectFrom('articles').selectAll().where('id', '=', drafted.body.data.id).executeTakeFirstOrThrow();
  assert.equal(row.post_id, postId, 'the draft is linked to its post');
  assert.ok(row.published_at);

  const lookup = await p.get(`/2/posts/${postId}?post.fields=article,author_id&expansions=article.cover_media,article.media_entities&media.fields=media_key,type`, { auth: p.appAuth });
  assert.equal(lookup.status, 200, lookup.text);
  assert.deepEqual(normalise(lookup.body, { [postId]: 'post', [p.user('ada').id]: 'ada', [cover.media_key]: 'cover', [image.media_key]: 'image' }), {
    data: {
      id: '<post>',
      text: 'Zanzibarian field notes', // the article's title
      author_id: '<ada>',
      article: {
        title: 'Zanzibarian field notes',
        preview_text: 'Why self-host\nPlaza runs on one machine and scales out with PostgreSQL.',
        plain_text: 'Why self-host\nPlaza runs on one machine and scales out with PostgreSQL.',
        cover_media: '<cover>',
        media_entities: ['<image>'],
      },
    },
    // article.cover_media and article.media_entities expand to media.
    includes: { media: [{ media_key: '<cover>', type: 'photo' }, { media_key: '<image>', type: 'photo' }] },
  });

  const plain = await p.get(`/2/posts/${postId}`, { auth: p.appAuth });
  assert.equal(plain.body.data.article, undefined, 'the article field is not a default');

  const timeline = await p.get(`/2/users/${p.user('ada').id}/posts?max_results=5`, { auth: p.appAuth });
  assert.equal(timeline.body.data[0].id, postId, "the post heads its author's timeline");
  // Recent search ends 30 seconds before now by default.
  clock.advance(60_000);
  const search = await p.get(`/2/posts/search/recent?query=${encodeURIComponent('Zanzibarian')}`, { auth: p.appAuth });
  assert.equal(search.status, 200, search.text);
  assert.deepEqual(search.body.data.map((d: { id: string }) => d.id), [postId], 'search finds the post');
});

test('only the author publishes: another user gets 403 and nothing changes', async () => {
  const drafted = await draft(await p.selfServeAs('ada'), draftBody('Mine to publish'));
  const before = await counts();
  const res = await publish(await p.selfServeAs('dana'), drafted.body.data.id);
  assert.equal(res.status, 403, res.text);
  assert.deepEqual(await counts(), before);
  const row = await plaza.ctx.store.db.selectFrom('articles').selectAll().where('id', '=', drafted.body.data.id).executeTakeFirstOrThrow();
  assert.equal(row.post_id, null);
});

test('publishing twice refuses: the second publish answers 409 and creates no second post', async () => {
  const auth = await p.selfServeAs('ada');
  const drafted = await draft(auth, draftBody('Only once'));
  assert.equal((await publish(auth, drafted.body.data.id)).status, 200);
  const before = await counts();
  const again = await publish(auth, drafted.body.data.id);
  assert.equal(again.status, 409, again.text);
  assert.deepEqual(await counts(), before);
});

test('publishing an article id that names no draft answers 404', async () => {
  const res = await publish(await p.selfServeAs('ada'), '123456789');
  assert.equal(res.status, 404, res.text);
  const bad = await publish(await p.selfServeAs('ada'), 'abc');
  assert.equal(bad.status, 400, 'article_id matches ^[0-9]{1,19}$');
});

test('bad drafts get a 400 naming the parameter and store nothing: a blank title, an entity range naming no entity, someone else\'s cover media, an unknown embedded post, an unknown member', async () => {
  const auth = await p.selfServeAs('ada');
  const before = await counts();
  const danaMedia = await p.uploadPng(await p.selfServeAs('dana'));
  const cases: Array<[unknown, string]> = [
    [draftBody('   '), 'title'],
    [{ ...draftBody('Ranges'), content_state: { blocks: [block(' ', { type: 'atomic', entity_ranges: [{ key: 3, offset: 0, length: 1 }] })], entities: [] } }, 'content_state.blocks[0].entity_ranges'],
    [draftBody('Cover', { cover_media: { media_id: danaMedia.id, media_category: 'tweet_image' } }), 'cover_media.media_id'],
    [{ ...draftBody('Embed'), content_state: { blocks: [block('x')], entities: [{ key: '0', value: { type: 'post', mutability: 'immutable', data: { post_id: '999999999' } } }] } }, 'content_state.entities[0].value.data.post_id'],
  ];
  for (const [body, parameter] of cases) {
    const res = await draft(auth, body);
    assert.ok(res.status === 400 || res.status === 404, `${parameter}: ${res.status} ${res.text}`);
    assert.ok(JSON.stringify(res.body).includes(parameter), `${parameter} is named: ${res.text}`);
  }
  const unknown = await draft(auth, { ...draftBody('Extra'), subtitle: 'no such member' });
  assert.equal(unknown.status, 400, unknown.text);
  const noTitle = await draft(auth, { content_state: { blocks: [], entities: [] } });
  assert.equal(noTitle.status, 400, noTitle.text);
  assert.deepEqual(await counts(), before);
});

test('drafting and publishing need user context: an app-only bearer token is refused', async () => {
  const res = await draft(p.appAuth as { bearer: string }, draftBody('App only'));
  assert.equal(res.status, 403, res.text);
});
