import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { mp4 } from '../../support/media-files.js';

/** Issue 34: a video carries preview_image_url, a poster frame Plaza generates and serves, beside its variants. */

let plaza: TestPlaza;
let g: Fixtures;
before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});
after(() => plaza.close());

test('an uploaded video has preview_image_url (a PNG poster of its shape, served by Plaza) and a variant with bit_rate, content_type and url', async () => {
  const auth = g.oauth2As('dana');
  const video = mp4({ width: 1280, height: 720, durationMs: 4000, payload: 5000 });
  const uploaded = await g.send('POST', '/2/media/upload', { auth, body: { media: video.toString('base64'), media_category: 'post_video', media_type: 'video/mp4' } });
  assert.equal(uploaded.status, 200, uploaded.text);
  const key = uploaded.body.data.media_key;
  const read = await g.get(`/2/media/${key}?media.fields=preview_image_url,variants,width,height`, { auth });
  assert.equal(read.status, 200, read.text);
  const media = read.body.data;
  assert.match(media.preview_image_url, new RegExp(`/media/${key}\\.png$`));
  assert.equal(media.variants[0].content_type, 'video/mp4');
  assert.equal(typeof media.variants[0].bit_rate, 'number');
  const poster = await fetch(media.preview_image_url);
  assert.equal(poster.status, 200);
  assert.equal(poster.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await poster.arrayBuffer());
  // The PNG's IHDR: width and height at bytes 16 and 20; the video's shape, 640 wide.
  assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [640, 360]);
});

test('demo users whose description holds hashtags or mentions have entities', async () => {
  const ada = await g.get(`/2/users/${g.user('ada').id}?user.fields=entities,description`, { auth: g.appAuth });
  assert.equal(ada.status, 200, ada.text);
  assert.match(ada.body.data.description, /#engineering/);
  assert.equal(ada.body.data.entities.description.hashtags[0].tag, 'engineering');
});
