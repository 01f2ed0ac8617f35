import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/** Bookmark folders (issue #18): folders of the user's own, and bookmarks filed in them through POST /2/users/{id}/bookmarks folder_id. */
let plaza: TestPlaza;
let g: Fixtures;
let withMedia: string, reply: string, quote: string, announcement: string;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  [withMedia, reply, quote, announcement] = plaza.creds.sample.post_ids;
});

const createFolder = async (username: string, name: unknown) => g.send('POST', `/2/users/${g.user(username).id}/bookmarks/folders`, { auth: await g.enterpriseAs(username), body: { name } });

test('POST /2/users/{id}/bookmarks/folders: 201 with {id, name}; GET lists the user\'s folders newest first with pagination', async () => {
  const first = await createFolder('dana', 'Recipes');
  assert.equal(first.status, 201, first.text);
  assert.match(first.body.data.id, /^[0-9]{1,19}$/);
  assert.equal(first.body.data.name, 'Recipes');
  const second = await createFolder('dana', 'Reading list');
  const auth = await g.enterpriseAs('dana');
  const list = await g.get(`/2/users/${g.user('dana').id}/bookmarks/folders`, { auth });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.slice(0, 2), [second.body.data, first.body.data]);
  const one = await g.get(`/2/users/${g.user('dana').id}/bookmarks/folders?max_results=1`, { auth });
  assert.equal(one.body.data.length, 1);
  assert.ok(one.body.meta.next_token);
  const next = await g.get(`/2/users/${g.user('dana').id}/bookmarks/folders?max_results=1&pagination_token=${one.body.meta.next_token}`, { auth });
  assert.deepEqual(next.body.data, [first.body.data]);
});

test('folder names are 1 to 25 characters: an empty, blank or 26-character name is a 400 naming `name` and creates nothing', async () => {
  const auth = await g.enterpriseAs('chen');
  const before = await g.get(`/2/users/${g.user('chen').id}/bookmarks/folders`, { auth });
  for (const name of ['', '   ', 'x'.repeat(26)]) {
    const res = await createFolder('chen', name);
    assert.equal(res.status, 400, JSON.stringify(name));
    assert.match(res.text, /name/);
  }
  const after = await g.get(`/2/users/${g.user('chen').id}/bookmarks/folders`, { auth });
  assert.deepEqual(after.body, before.body);
});

test('only the user themselves: another user\'s id in the path is a 403 for listing, creating and reading a folder', async () => {
  const folder = (await createFolder('ada', 'Mine')).body.data;
  const dana = await g.enterpriseAs('dana');
  const ada = g.user('ada').id;
  assert.equal((await g.get(`/2/users/${ada}/bookmarks/folders`, { auth: dana })).status, 403);
  assert.equal((await g.send('POST', `/2/users/${ada}/bookmarks/folders`, { auth: dana, body: { name: 'Theirs' } })).status, 403);
  assert.equal((await g.get(`/2/users/${ada}/bookmarks/folders/${folder.id}`, { auth: dana })).status, 403);
  assert.equal((await g.get(`/2/users/${ada}/bookmarks/folders`, { auth: g.appAuth })).status, 403, 'app-only cannot read bookmarks');
});

test('POST /2/users/{id}/bookmarks with folder_id files the bookmark; GET .../folders/{folder_id} lists post ids, newest filing first; filing again moves it; unbookmarking removes it', async () => {
  const chen = g.user('chen').id;
  const auth = await g.enterpriseAs('chen');
  const news = (await createFolder('chen', 'News')).body.data;
  const later = (await createFolder('chen', 'Later')).body.data;
  for (const post of [withMedia, announcement]) {
    const res = await g.send('POST', `/2/users/${chen}/bookmarks`, { auth, body: { post_id: post, folder_id: news.id } });
    assert.deepEqual(res.body, { data: { bookmarked: true } });
  }
  const inNews = await g.get(`/2/users/${chen}/bookmarks/folders/${news.id}`, { auth });
  assert.equal(inNews.status, 200, inNews.text);
  assert.deepEqual(inNews.body.data, [{ id: announcement }, { id: withMedia }]);
  assert.equal(inNews.body.meta.result_count, 2);
  const bookmarks = await g.get(`/2/users/${chen}/bookmarks`, { auth });
  assert.ok(bookmarks.body.data.some((p: { id: string }) => p.id === announcement), 'a filed bookmark is a bookmark');

  await g.send('POST', `/2/users/${chen}/bookmarks`, { auth, body: { post_id: announcement, folder_id: later.id } });
  assert.deepEqual((await g.get(`/2/users/${chen}/bookmarks/folders/${news.id}`, { auth })).body.data, [{ id: withMedia }]);
  assert.deepEqual((await g.get(`/2/users/${chen}/bookmarks/folders/${later.id}`, { auth })).body.data, [{ id: announcement }]);

  await g.send('DELETE', `/2/users/${chen}/bookmarks/${announcement}`, { auth });
  const empty = await g.get(`/2/users/${chen}/bookmarks/folders/${later.id}`, { auth });
  assert.equal(empty.body.data, undefined);
  assert.equal(empty.body.meta.result_count, 0);
});

test('folder_id must be one of the user\'s folders (400 naming folder_id, nothing bookmarked); an unknown folder_id in the path is a 404', async () => {
  const ada = g.user('ada').id;
  const auth = await g.enterpriseAs('ada');
  const danasFolder = (await createFolder('dana', 'Private')).body.data;
  const count = (await g.postRow(quote)).bookmark_count;
  const res = await g.send('POST', `/2/users/${ada}/bookmarks`, { auth, body: { post_id: quote, folder_id: danasFolder.id } });
  assert.equal(res.status, 400);
  assert.match(res.text, /folder_id/);
  assert.equal((await g.postRow(quote)).bookmark_count, count, 'nothing bookmarked');
  assert.equal((await g.get(`/2/users/${ada}/bookmarks/folders/${danasFolder.id}`, { auth })).status, 404);
  assert.equal((await g.get(`/2/users/${ada}/bookmarks/folders/12x`, { auth })).status, 400);
  assert.equal((await g.get(`/2/users/${ada}/bookmarks/folders?max_results=101`, { auth })).status, 400);
  void reply;
});
