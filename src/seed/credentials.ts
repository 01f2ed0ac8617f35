import fs from 'node:fs';
import path from 'node:path';

/** The credentials file: a contract that tools and tests rely on (shared/DESIGN.md). */
export interface CredentialsFile {
  base_url: string;
  ads_url: string;
  ads_sandbox_url: string;
  /** The drop-in proxy (src/proxy/): HTTPS_PROXY for clients that call the public platform's hosts. */
  proxy_url?: string;
  /** The certificate of Plaza's authority, which issues the public hosts' certificates the proxy shows. */
  ca_file?: string;
  /** The Node preload that routes fetch and https through the proxy: `node --import <it>`. */
  node_preload?: string;
  apps: Array<{
    id: string;
    name: string;
    tier: string;
    consumer_key: string;
    consumer_secret: string;
    bearer_token: string;
    client_id: string;
    client_secret: string;
    callback_urls: string[];
    /** 'tweet': every answer and delivery to the app in the public platform's names; 'post': Plaza's (src/http/dialect). */
    dialect: string;
  }>;
  users: Array<
    {
      id: string;
      username: string;
      password: string;
      /** One entry per demo app, in the order of `apps`; the top-level tokens are those of apps[0]. */
      tokens: AppTokens[];
      ads_account_ids: string[];
    } & Omit<AppTokens, 'app_id'>
  >;
  sample: { post_ids: string[]; media_keys: string[] };
  /** Opens the admin interface (/admin/... on the platform listener); absent when it is off. */
  admin_token?: string;
}

/** A demo user's tokens for one demo app. */
export interface AppTokens {
  app_id: string;
  access_token: string;
  access_token_secret: string;
  oauth2_access_token: string;
  oauth2_refresh_token: string;
}

/**
 * The previous credentials file, or undefined when there is none or it is not one (unreadable,
 * not JSON, or missing the arrays a later start reads): the caller then issues fresh secrets.
 */
export function readCredentials(file: string): CredentialsFile | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  return isCredentialsFile(parsed) ? parsed : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isCredentialsFile(v: unknown): v is CredentialsFile {
  return (
    isObject(v) &&
    Array.isArray(v.apps) &&
    v.apps.every((a) => isObject(a) && typeof a.id === 'string') &&
    Array.isArray(v.users) &&
    v.users.every((u) => isObject(u) && typeof u.id === 'string')
  );
}

/**
 * Written whole (mode 0600: it holds every secret of the demo workspace) to a temporary file
 * beside it, then renamed over it: a reader never sees half a file. The URLs come first.
 */
export function writeCredentials(file: string, credentials: CredentialsFile): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const { base_url, ads_url, ads_sandbox_url, ...rest } = credentials;
  try {
    fs.writeFileSync(tmp, `${JSON.stringify({ base_url, ads_url, ads_sandbox_url, ...rest }, null, 2)}\n`, { mode: 0o600 });
    // A leftover temporary file from an earlier crash keeps its old mode through writeFileSync.
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
