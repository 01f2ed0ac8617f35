import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/** GET /2/dm_conversations/media/{dm_id}/{media_id}/{resource_id} (issue #18): DM media bytes, for participants only. */
let plaza: TestPlaza;
let g: Fixtures;
let dmId: string;
type Media = { id: string; media_key: string; url: string | null; file_path: string | null; mime_type: string };
let media: Media;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  const rows = await plaza.ctx.store.db.selectFrom('media').selectAll().where('owner_user_id', '=', g.user('ada').id).execute();
  let found: Media | undefined;
  for (const m of rows) if (!found && m.file_path && (await plaza.ctx.media.open(m.file_path))) found = m;
  media = found!;
  assert.ok(media, 'the demo seed stores a file for one of ada\'s media');
  const sent = await g.send('POST', `/2/dm_conversations/with/${g.user('dana').id}/messages`, { auth: g.oauth2As('ada'), body: { text: 'a picture', attachments: [{ media_id: media.id }] } });
  assert.equal(sent.status, 201, sent.text);
  dmId = sent.body.data.dm_event_id;
});

const fileName = () => media.url!.split('/').pop()!;
const download = (username: string, path: string) => fetch(`${plaza.urls.base_url}${path}`, { headers: { authorization: `Bearer ${g.user(username).oauth2_access_token}` } });

test('a participant (sender or recipient) downloads the bytes of the media attached to the DM event, with its content type; resource_id is the file name of its url or its media key', async () => {
  const bytes = (await plaza.ctx.media.read(media.file_path!))!;
  for (const [who, resource] of [['dana', fileName()], ['ada', media.media_key]]) {
    const res = await download(who, `/2/dm_conversations/media/${dmId}/${media.id}/${resource}`);
    assert.equal(res.status, 200, who);
    assert.equal(res.headers.get('content-type'), media.mime_type);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  }
});

test('"The requesting user must be a participant in the conversation containing the specified DM event": anyone else gets 403 and no bytes', async () => {
  const res = await download('chen', `/2/dm_conversations/media/${dmId}/${media.id}/${fileName()}`);
  assert.equal(res.status, 403);
  assert.match(res.headers.get('content-type') ?? '', /json/);
});

test('an unknown DM event, a media not attached to it, a wrong resource_id are 404; non-id path values are a 400; app-only is refused', async () => {
  const other = (await plaza.ctx.store.db.selectFrom('media').select(['id', 'media_key']).where('id', '!=', media.id).executeTakeFirstOrThrow());
  assert.equal((await download('dana', `/2/dm_conversations/media/1234567890123456789/${media.id}/${fileName()}`)).status, 404);
  assert.equal((await download('dana', `/2/dm_conversations/media/${dmId}/${other.id}/${other.media_key}`)).status, 404);
  assert.equal((await download('dana', `/2/dm_conversations/media/${dmId}/${media.id}/3_1.png`)).status, 404);
  assert.equal((await download('dana', `/2/dm_conversations/media/abc/${media.id}/${fileName()}`)).status, 400);
  assert.equal((await download('dana', `/2/dm_conversations/media/${dmId}/${media.id}/..%2Fetc`)).status, 400);
  const app = await g.get(`/2/dm_conversations/media/${dmId}/${media.id}/${fileName()}`, { auth: g.appAuth });
  assert.equal(app.status, 403);
});

test('a deleted DM event no longer serves its media', async () => {
  const sent = await g.send('POST', `/2/dm_conversations/with/${g.user('dana').id}/messages`, { auth: g.oauth2As('ada'), body: { attachments: [{ media_id: media.id }] } });
  const id = sent.body.data.dm_event_id;
  assert.equal((await download('dana', `/2/dm_conversations/media/${id}/${media.id}/${fileName()}`)).status, 200);
  assert.equal((await g.send('DELETE', `/2/dm_events/${id}`, { auth: g.oauth2As('ada') })).status, 200);
  assert.equal((await download('dana', `/2/dm_conversations/media/${id}/${media.id}/${fileName()}`)).status, 404);
});
