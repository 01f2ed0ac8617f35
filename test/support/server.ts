import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import OAuth from 'oauth-1.0a';
import pg from 'pg';
import { startPlaza, type Plaza } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type ConfigOverrides } from '../../src/config.js';
import { dropPostgresDatabase, freshPostgresDatabase } from './postgres.js';
import { copyTemplate, demoTemplate, rebaseMedia } from './template.js';
import type { CredentialsFile } from '../../src/seed/credentials.js';

/**
 * Boots the real server on port 0 with a temporary store: a SQLite file in a temp folder, or,
 * when DATABASE_URL is set, a fresh PostgreSQL database dropped afterwards.
 */
export interface TestPlaza extends Plaza {
  creds: CredentialsFile;
  dataDir: string;
  databaseUrl: string;
  /** Stops the server, keeping the store, and starts it again on it. */
  restart(overrides?: ConfigOverrides): Promise<TestPlaza>;
}

export async function startTestPlaza(overrides: ConfigOverrides = {}, deps: { clock?: Clock } = {}): Promise<TestPlaza> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-test-'));
  // A Plaza given another's store leaves the store to its owner; stores are dropped once every
  // Plaza of the file has closed.
  const owned = overrides.databaseUrl === undefined;
  const adminUrl = process.env.DATABASE_URL;
  const template = owned && seedsFromTemplate(overrides, deps.clock) ? await demoTemplate(adminUrl) : undefined;
  const databaseUrl =
    overrides.databaseUrl ??
    (template ? await copyTemplate(template, dataDir, adminUrl) : adminUrl ? await freshPostgresDatabase(adminUrl) : path.join(dataDir, 'plaza.sqlite'));
  // A second Plaza on a store mints no credentials of its own (they are minted once per store): it
  // is given the first one's file, as an operator would.
  const shared = credentialsFiles.get(databaseUrl);
  const plaza = await boot({ ...(shared ? { credentialsFile: shared } : {}), ...overrides, databaseUrl, dataDir }, deps);
  if (!shared) credentialsFiles.set(databaseUrl, plaza.ctx.config.credentialsFile);
  if (template) await rebaseMedia(template, plaza, dataDir);
  cleanups.push({
    close: () => plaza.close(),
    async remove() {
      if (owned && databaseUrl.startsWith('postgres')) await dropPostgresDatabase(databaseUrl);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
  return plaza;
}

const credentialsFiles = new Map<string, string>();

/**
 * A server that would seed the demo workspace at about the present boots from a copy of the one
 * seeded for the whole run (test/support/template.ts), which is the same workspace seeded moments
 * earlier. A clock set elsewhere in time (a test of the release history) seeds its own, at its time.
 */
function seedsFromTemplate(overrides: ConfigOverrides, clock: Clock | undefined): boolean {
  // The template's media are where its own server kept them; a server given a bucket seeds its own into it.
  if (overrides.seedDemo === false || overrides.mediaBucket !== undefined) return false;
  return !clock || Math.abs(clock.now().getTime() - Date.now()) < 60_000;
}

// Registered when this module loads, at the root of the importing test file, so servers started
// in `before` hooks live until every test of the file has run.
// Servers close in the order they started (a test may have broken a later one's store on purpose,
// whose close then never ends), and only then are stores dropped, so no Plaza loses its database
// while it runs.
const cleanups: Array<{ close(): Promise<void>; remove(): Promise<void> }> = [];
after(async () => {
  const all = cleanups.splice(0);
  for (const c of all) await c.close();
  for (const c of all) await c.remove();
});

async function boot(overrides: ConfigOverrides & { databaseUrl: string; dataDir: string }, deps: { clock?: Clock }): Promise<TestPlaza> {
  const config = loadConfig(
    { port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', credentialsFile: path.join(overrides.dataDir, 'credentials.json'), ...overrides },
    {},
  );
  const plaza = await startPlaza(config, deps);
  const test: TestPlaza = Object.assign(plaza, {
    creds: plaza.credentials!,
    dataDir: overrides.dataDir,
    databaseUrl: overrides.databaseUrl,
    async restart(more: ConfigOverrides = {}) {
      await plaza.close();
      const next = await boot({ ...overrides, ...more }, deps);
      Object.assign(test, next);
      return test;
    },
  });
  return test;
}

export { dropPostgresDatabase, freshPostgresDatabase } from './postgres.js';

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  form?: Record<string, string>;
  /** An app-only bearer token, an OAuth 2.0 user token, or an OAuth 1.0a signer. */
  auth?: { bearer: string } | { oauth1: OAuth1Credentials };
}

export interface OAuth1Credentials {
  consumer_key: string;
  consumer_secret: string;
  token?: string;
  token_secret?: string;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One HTTP call to a listener; JSON bodies are parsed. */
export async function call<T = any>(baseUrl: string, pathAndQuery: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = `${baseUrl}${pathAndQuery}`;
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (options.auth && 'bearer' in options.auth) headers.authorization = `Bearer ${options.auth.bearer}`;
  if (options.auth && 'oauth1' in options.auth) headers.authorization = oauth1Header(options.auth.oauth1, method, url, options.form);
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** An independent OAuth 1.0a signer (the oauth-1.0a package), as a client library would sign. */
export function oauth1Header(c: OAuth1Credentials, method: string, url: string, form?: Record<string, string>): string {
  const oauth = new OAuth({
    consumer: { key: c.consumer_key, secret: c.consumer_secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
  });
  const token = c.token ? { key: c.token, secret: c.token_secret ?? '' } : undefined;
  return oauth.toHeader(oauth.authorize({ url, method, data: form }, token)).Authorization;
}
