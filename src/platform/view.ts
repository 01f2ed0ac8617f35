import type { Caller } from '../auth/authenticate.js';
import type { Clock } from '../clock.js';
import type { ConnectionStatus } from './users/schema.js';

/** Who is looking, and what the converters need to know about them, for one response. */
export interface View {
  viewerId?: string;
  /** The app the caller uses: the posts shown count as that app's reads (usage/post-reads.ts). */
  appId?: string;
  now: Date;
  /** connection_status of each user towards the viewer, when that field was selected. */
  relations?: ReadonlyMap<string, ConnectionStatus[]>;
  /** The viewer may see their own confirmed email (users.email scope). */
  emailVisible?: boolean;
}

/** The view of a caller: app-only callers see as nobody in particular. */
export function viewOf(clock: Clock, caller: Caller): View {
  if (caller.kind === 'app') return { now: clock.now(), appId: caller.app.id };
  return {
    viewerId: caller.user.id,
    appId: caller.app.id,
    now: clock.now(),
    emailVisible: caller.kind === 'oauth2' && caller.scopes.has('users.email'),
  };
}
