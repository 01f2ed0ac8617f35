import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, listQuery, listRequest, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse } from '../schemas.js';
import { UserSchema } from './schema.js';
import { viewOf } from '../view.js';
import { affiliatesOf } from './affiliates.js';
import { userExpansions } from './service.js';

/** max_results of an organisation's affiliates (shared/reference S167: 1 to 1000). */
const AFFILIATES = { min: 1, max: 1000, default: 100 };

export async function affiliateRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.get(
    '/2/users/:id/affiliates',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getUsersAffiliates',
        summary: 'The accounts affiliated with an organisation, newest account first',
        tags: ['Users'],
        params: idParams('id'),
        querystring: listQuery(AFFILIATES, userExpansions),
        response: { 200: pageResponse(UserSchema), default: defaultErrorResponse },
      },
    },
    async (request) => pageBody(await affiliatesOf(ctx, viewOf(ctx.clock, callerOf(request)), request.params.id, listRequest(request.query, AFFILIATES, userExpansions))),
  );
}
