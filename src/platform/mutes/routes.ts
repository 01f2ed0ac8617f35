import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { userRelationRoutes } from '../graph/relation-routes.js';
import { mutedBy, muteUser, unmuteUser } from './service.js';

export async function muteRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  await userRelationRoutes(app, ctx, {
    name: 'muting',
    scope: 'mute',
    operationIds: { list: 'getUsersMuting', create: 'muteUser', remove: 'unmuteUser' },
    summaries: {
      list: 'The accounts the authenticated user mutes, newest first',
      create: "Mute a user: their posts leave the muter's home timeline",
      remove: 'Unmute a user',
    },
    targetDescription: 'The user to mute.',
    list: mutedBy,
    create: muteUser,
    remove: unmuteUser,
  });
}
