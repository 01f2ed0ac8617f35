import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { TwitterApi, type TwitterApiOAuth2Init, type TwitterApiTokens } from 'twitter-api-v2';
import { plazaPlugin } from '../support/twitter-api-v2.js';

/**
 * Helpers for the OAuth flow and page tests: the real `twitter-api-v2` client pointed at Plaza, a
 * cookie-keeping form client for page rules that need no browser, Debian's Chromium through
 * playwright-core, and a callback server standing in for an app.
 */

/** A twitter-api-v2 client that talks to Plaza over plain http (development mode). */
export function twitterClient(baseUrl: string, tokens: string | TwitterApiTokens | TwitterApiOAuth2Init): TwitterApi {
  // The overloads take one credential kind each; the library accepts any of them at run time.
  return new TwitterApi(tokens as TwitterApiTokens, { plugins: [plazaPlugin(baseUrl)], httpAgent: new http.Agent() });
}

/** An auth link of twitter-api-v2 (https://api.x.com/..., https://x.com/...) pointed at Plaza. */
export function onPlaza(baseUrl: string, link: string): string {
  const url = new URL(link);
  return `${baseUrl}${url.pathname}${url.search}`;
}

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  location?: string;
  setCookies: string[];
}

export interface ParsedForm {
  action: string;
  fields: Record<string, string>;
}

const decodeEntities = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The POST forms of a page, with their hidden and prefilled fields. */
export function formsOf(htmlText: string): ParsedForm[] {
  const forms: ParsedForm[] = [];
  for (const m of htmlText.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const fields: Record<string, string> = {};
    for (const input of m[2].matchAll(/<input ([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(input[1])?.[1];
      const value = /value="([^"]*)"/.exec(input[1])?.[1];
      const type = /type="([^"]*)"/.exec(input[1])?.[1];
      if (!name || type === 'checkbox') continue;
      fields[decodeEntities(name)] = decodeEntities(value ?? '');
    }
    for (const area of m[2].matchAll(/<textarea [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) fields[area[1]] = decodeEntities(area[2]);
    for (const select of m[2].matchAll(/<select [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
      fields[select[1]] = /<option value="([^"]*)" selected>/.exec(select[2])?.[1] ?? '';
    }
    forms.push({ action: decodeEntities(m[1]), fields });
  }
  return forms;
}

/** A browser without a browser: keeps cookies, follows nothing, submits forms. */
export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(method: string, pathOrUrl: string, form?: Record<string, string>): Promise<PageResponse> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text(), location: response.headers.get('location') ?? undefined, setCookies };
  }

  get(path: string): Promise<PageResponse> {
    return this.request('GET', path);
  }

  /** Submits the page's form whose action matches, with its own fields and the given ones. */
  async submit(pageResponse: PageResponse, action: string | RegExp, values: Record<string, string> = {}): Promise<PageResponse> {
    const form = formsOf(pageResponse.text).find((f) => (typeof action === 'string' ? f.action === action : action.test(f.action)));
    if (!form) throw new Error(`no form posting to ${String(action)} on the page:\n${pageResponse.text.slice(0, 2000)}`);
    return this.request('POST', form.action, { ...form.fields, ...values });
  }

  async signIn(username: string, password: string): Promise<void> {
    const login = await this.get('/login');
    const res = await this.submit(login, '/login', { username, password });
    if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  }
}

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Browser tests skip, saying why, only when Debian's Chromium is not installed (CI installs it). */
export const chromiumMissing: string | false = fs.existsSync(CHROMIUM_PATH)
  ? false
  : `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium); browser tests skipped`;

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface CallbackServer {
  /** Where the app's callback lives, e.g. http://127.0.0.1:PORT/callback */
  url: string;
  /** The next request the browser makes to it. */
  next(): Promise<URL>;
  close(): Promise<void>;
}

/** Stands in for an app's callback endpoint: answers a small page and records what it got. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URL[] = [];
  const waiting: Array<(u: URL) => void> = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      // The browser's own requests (a favicon) are not the app's callback.
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Back at the app</title><h1>Back at the app</h1>');
    const resolve = waiting.shift();
    if (resolve) resolve(url);
    else received.push(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const first = received.shift();
      if (first) return Promise.resolve(first);
      return new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the callback was not called')), 10_000);
        waiting.push((u) => {
          clearTimeout(timer);
          resolve(u);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An app made through the console's own rules, owned by a demo user. */
export async function createTestApp(
  plaza: { ctx: import('../../src/platform/context.js').PlatformContext },
  ownerId: string,
  settings: { name?: string; tier?: import('../../src/store/schema.js').Tier; callbackUrls?: string[]; signInEnabled?: boolean; dialect?: import('../../src/store/schema.js').AppDialect } = {},
) {
  const { createApp } = await import('../../src/web/console.js');
  const owner = await plaza.ctx.store.db.selectFrom('users').selectAll().where('id', '=', ownerId).executeTakeFirstOrThrow();
  const app = await createApp(plaza.ctx, owner, {
    name: settings.name ?? 'Test app',
    tier: settings.tier ?? 'pro',
    callbackUrls: settings.callbackUrls ?? ['https://app.example/callback'],
    signInEnabled: settings.signInEnabled ?? true,
    dialect: settings.dialect ?? 'post',
  });
  return app;
}

/** The app-only bearer token the console issued an app. */
export async function appBearer(plaza: { ctx: import('../../src/platform/context.js').PlatformContext }, appId: string): Promise<string> {
  const { currentAppBearerToken } = await import('../../src/auth/issue.js');
  const token = await currentAppBearerToken(plaza.ctx, plaza.ctx.store.db, appId);
  if (!token) throw new Error(`the console issued app ${appId} no bearer token`);
  return token;
}

/** Step 2 without a browser: open the authorize (or authenticate) link and approve as this person. */
export async function approveOAuth1(client: FormClient, link: string, credentials?: { username: string; password: string }): Promise<PageResponse> {
  const consent = await client.get(link);
  if (consent.status === 302) return consent;
  if (consent.status !== 200) throw new Error(`authorize page answered ${consent.status}: ${consent.text.slice(0, 500)}`);
  return client.submit(consent, '/oauth/authorize', { decision: 'allow', ...(credentials ?? {}) });
}

/** The PIN shown on the out-of-band page. */
export function pinOf(page: PageResponse): string {
  const pin = /id="oauth-pin"[^>]*>([0-9]{7})</.exec(page.text)?.[1];
  if (!pin) throw new Error(`no PIN on the page:\n${page.text.slice(0, 1500)}`);
  return pin;
}
