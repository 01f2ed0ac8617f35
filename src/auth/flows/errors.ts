/**
 * The error bodies of the token endpoints, which are not Problems on the public platform:
 * OAuth 1.0a steps and app-only tokens answer `{"errors":[{"code","message"}]}` (v1.1 style,
 * shared/reference/platform.md §4 and §5), the OAuth 2.0 user-token endpoints answer
 * `{"error","error_description"}` (RFC 6749 §5.2).
 */
export class LegacyOAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly label?: string,
  ) {
    super(message);
    this.name = 'LegacyOAuthError';
  }

  body(): { errors: Array<{ code: number; message: string; label?: string }> } {
    return { errors: [{ code: this.code, ...(this.label ? { label: this.label } : {}), message: this.message }] };
  }
}

export class OAuth2Error extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuth2Error';
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** v1.1 error codes the OAuth 1.0a steps use. */
export const legacy = {
  couldNotAuthenticate: (detail?: string) => new LegacyOAuthError(401, 32, detail ? `Could not authenticate you. ${detail}` : 'Could not authenticate you.'),
  invalidToken: () => new LegacyOAuthError(401, 89, 'Invalid or expired token.'),
  timestamp: () => new LegacyOAuthError(401, 135, 'Timestamp out of bounds.'),
  badAuthData: (detail: string) => new LegacyOAuthError(400, 215, `Bad Authentication data. ${detail}`),
  sslRequired: () =>
    new LegacyOAuthError(
      403,
      92,
      'SSL is required. Send this request over HTTPS (behind a proxy, set X-Forwarded-Proto: https), or run Plaza in development mode (PLAZA_DEVELOPMENT=true) to allow plain http.',
    ),
  callbackNotApproved: () =>
    new LegacyOAuthError(403, 415, 'Callback URL not approved for this client application. Approved callback URLs can be adjusted in your application settings'),
  desktopOnlyOob: () => new LegacyOAuthError(403, 417, "Desktop applications only support the oauth_callback value 'oob'"),
  /** App-only token endpoints: a bad grant, bad credentials or an unknown token. */
  unableToVerify: () => new LegacyOAuthError(403, 99, 'Unable to verify your credentials', 'authenticity_token_error'),
};
