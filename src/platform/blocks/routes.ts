import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { userRelationRoutes } from '../graph/relation-routes.js';
import { blockedBy, blockUser, unblockUser } from './service.js';

export async function blockRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  await userRelationRoutes(app, ctx, {
    name: 'blocking',
    scope: 'block',
    operationIds: { list: 'getUsersBlocking', create: 'blockUser', remove: 'unblockUser' },
    summaries: {
      list: 'The accounts the authenticated user blocks, newest first',
      create: 'Block a user (enterprise tier)',
      remove: 'Unblock a user (enterprise tier)',
    },
    targetDescription: 'The user to block.',
    list: blockedBy,
    create: blockUser,
    remove: unblockUser,
  });
}
