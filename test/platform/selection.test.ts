import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { fixtures, type Fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';

/** Field selection and expansions are checked against the endpoint's own declarations (spec 000 "Field selection and expansions"). */
let plaza: TestPlaza;
let f: Fixtures;
before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
});

test('an expansion valid on another endpoint is an invalid-request naming `expansions` and its allowed values, however often an endpoint that has it was asked for it first', async () => {
  const ada = f.user('ada');
  const postId = plaza.creds.sample.post_ids[0];
  // Valid where it belongs, asked twice so that its parse is remembered.
  for (let i = 0; i < 2; i++) assert.equal((await f.get(`/2/posts/${postId}?expansions=author_id`, { auth: f.appAuth })).status, 200);
  for (const path of [`/2/users/${ada.id}`, '/2/users/me', `/2/users/by/username/ada`]) {
    const auth = path === '/2/users/me' ? f.oauth2As('ada') : f.appAuth;
    const res = await f.get(`${path}?expansions=author_id`, { auth });
    assert.deepEqual(res.body, {
      errors: [{ message: 'The `expansions` query parameter value [author_id] is not one of [affiliation,most_recent_post_id,pinned_post_id]', parameters: { expansions: ['author_id'] } }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: problemType('invalid-request'),
      status: 400,
    }, path);
  }
});
