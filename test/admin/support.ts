import { call, type CallOptions, type TestPlaza } from '../support/server.js';

/** Calls to the admin interface of a test Plaza, with its admin token unless told otherwise. */
export function adminFixtures(plaza: TestPlaza) {
  const token = () => plaza.creds.admin_token!;
  return {
    token,
    admin: <T = any>(method: string, path: string, options: CallOptions = {}) =>
      call<T>(plaza.urls.base_url, path, { auth: { bearer: token() }, ...options, method }),
  };
}
