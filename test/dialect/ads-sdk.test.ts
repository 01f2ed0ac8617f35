import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { runProgram } from './support.js';

/**
 * The advertising interface as the twitter-ads Python SDK calls it (issue 15). The SDK itself is
 * not installable here (the Python package index is out of reach), so test/dialect/ads_client.py
 * sends its requests as its twitter_ads.http.Request does, with requests_oauthlib (a dependency of
 * Debian's python3-tweepy).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import requests_oauthlib'], { stdio: 'ignore' }).status === 0);

let plaza: TestPlaza;

before(async () => {
  plaza = await startTestPlaza();
});

test('twitter-ads requests (Request._DEFAULT_DOMAIN set to Plaza\'s ads URL, OAuth1Session, query parameters on POST): account, funding instruments, campaign and line item created, listed by campaign_ids, campaign deleted', { skip: python ? false : 'requests_oauthlib is not installed (apt-get install python3-tweepy brings it)' }, async () => {
  const ada = plaza.creds.users.find((u) => u.username === 'ada')!;
  const app = plaza.creds.apps[0];
  const run = await runProgram(python!, [path.join(here, 'ads_client.py')], {
    ADS_URL: plaza.urls.ads_url,
    CONSUMER_KEY: app.consumer_key,
    CONSUMER_SECRET: app.consumer_secret,
    ACCESS_TOKEN: ada.access_token,
    ACCESS_TOKEN_SECRET: ada.access_token_secret,
    ACCOUNT_ID: ada.ads_account_ids[0],
  });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.account, ada.ads_account_ids[0]);
  assert.equal(out.campaign.name, 'SDK campaign');
  assert.ok(out.campaign.request_params.includes('funding_instrument_id'), 'the request envelope echoes the parameters');
  assert.equal(out.line_item.campaign_id, out.campaign.id);
  assert.deepEqual(out.listed, [out.line_item.id]);
  assert.equal(out.has_next_cursor_member, true);
  assert.equal(out.deleted, true);
});
