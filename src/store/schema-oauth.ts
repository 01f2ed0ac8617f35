import type { AccessLevel } from './schema.js';

/** Tables of the OAuth flows and the pages (migration 0003-oauth-flows). */
export interface OAuthFlowTables {
  oauth1_request_tokens: OAuth1RequestTokenTable;
  app_bearer_derivations: AppBearerDerivationTable;
  oauth2_codes: OAuth2CodeTable;
  oauth2_grants: OAuth2GrantTable;
  oauth2_grant_tokens: OAuth2GrantTokenTable;
  web_sessions: WebSessionTable;
}

/** Step 1 of the OAuth 1.0a three-legged flow, until it is exchanged (step 3), denied or expired. */
export interface OAuth1RequestTokenTable {
  token: string;
  /** Signs the access-token request, so it is kept as issued (like OAuth 1.0a access token secrets). */
  secret: string;
  app_id: string;
  /** A registered callback URL, or `oob` for the PIN mode. */
  callback: string;
  /** The most the person can grant: lowered by x_auth_access_type. */
  access_level: AccessLevel;
  created_at: string;
  expires_at: string;
  /** Set when the person approves (step 2). */
  user_id: string | null;
  /** SHA-256 of the oauth_verifier (or PIN) given to the person's browser. */
  verifier_hash: string | null;
  authorized_at: string | null;
  denied_at: string | null;
  /** Wrong verifiers presented so far; the token is voided after a few. */
  failed_attempts: number;
  used_at: string | null;
}

/**
 * How an app-only bearer token is re-derived: token = f(HMAC(server secret, app id, salt)). The
 * token itself is only stored as a hash (app_bearer_tokens); the salt is not a secret.
 */
export interface AppBearerDerivationTable {
  token_hash: string;
  app_id: string;
  salt: string;
  created_at: string;
}

/** OAuth 2.0 authorization codes (30 s, single use), stored as hashes. */
export interface OAuth2CodeTable {
  code_hash: string;
  grant_id: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: 'S256' | 'plain';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One consent of a person to an app (OAuth 2.0): its scopes and the dialect they were asked in. */
export interface OAuth2GrantTable {
  id: string;
  app_id: string;
  user_id: string;
  /** Space-separated, Plaza's names ('post.read'). */
  scopes: string;
  /** 'tweet' when the client asked for tweet.* scopes: answers then use the public names. */
  scope_dialect: 'post' | 'tweet';
  created_at: string;
  revoked_at: string | null;
}

/** Which grant an access or refresh token (oauth2_tokens) belongs to. */
export interface OAuth2GrantTokenTable {
  token_hash: string;
  grant_id: string;
}

/** A signed-in browser: the cookie carries a random token, the store keeps its hash. */
export interface WebSessionTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}
