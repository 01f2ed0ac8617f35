import { spawn } from 'node:child_process';
import http from 'node:http';
import { TwitterApi } from 'twitter-api-v2';
import type { TestPlaza } from '../support/server.js';
import { plazaPlugin } from '../support/twitter-api-v2.js';

/** The demo workspace's credentials as twitter-api-v2 clients. */
export function sdkClients(plaza: TestPlaza) {
  const { creds } = plaza;
  // The client makes every request with https.request; an http agent lets it speak plain HTTP to Plaza.
  const settings = { httpAgent: new http.Agent(), plugins: [plazaPlugin(plaza.urls.base_url)] };
  const user = (username: string) => {
    const u = creds.users.find((x) => x.username === username);
    if (!u) throw new Error(`no demo user ${username}`);
    return u;
  };
  const [selfServe, enterprise] = creds.apps;
  return {
    user,
    selfServe,
    enterprise,
    /** App-only: consumer keys, for appLogin. */
    consumerKeys: () => new TwitterApi({ appKey: selfServe.consumer_key, appSecret: selfServe.consumer_secret }, settings),
    bearer: () => new TwitterApi(selfServe.bearer_token, settings),
    /** OAuth 1.0a user context of the self-serve app (apps[0]). */
    oauth1: (username: string) =>
      new TwitterApi({ appKey: selfServe.consumer_key, appSecret: selfServe.consumer_secret, accessToken: user(username).access_token, accessSecret: user(username).access_token_secret }, settings),
    /** OAuth 2.0 user context of the self-serve app. */
    oauth2: (username: string) => new TwitterApi(user(username).oauth2_access_token, settings),
    /** OAuth 1.0a user context of the enterprise app (apps[1]), which may like and follow. */
    enterpriseOAuth1: (username: string) => {
      const t = user(username).tokens[1];
      return new TwitterApi({ appKey: enterprise.consumer_key, appSecret: enterprise.consumer_secret, accessToken: t.access_token, accessSecret: t.access_token_secret }, settings);
    },
    /** OAuth 2.0 user context of the enterprise app. */
    enterpriseOAuth2: (username: string) => new TwitterApi(user(username).tokens[1].oauth2_access_token, settings),
  };
}

/**
 * Runs a program to its end (bounded by `timeoutMs`, then killed) and gives its exit code and
 * output; the child is always reaped before this resolves.
 */
export function runProgram(command: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
