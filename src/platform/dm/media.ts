import type { Readable } from 'node:stream';
import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, problems } from '../../http/problems.js';
import { fromJson } from '../../store/store.js';
import { requireDmAccess } from '../graph/access.js';
import type { MediaRow } from '../media/wire.js';
import { eventsVisibleTo, findMediaByIds } from './store.js';

/** The file of a media attached to a DM, for a participant who may see the message. */
export interface DmMediaFile {
  mimeType: string;
  size: number;
  stream(): Readable;
}

function notFound(what: string): ProblemError {
  return new ProblemError(404, problems.aboutBlank(404, 'Not Found', what));
}

/** The last segment of the media's URL (`<media_key>.<ext>`), or its media key alone. */
function resourceIdsOf(media: MediaRow): string[] {
  const file = media.url?.split('/').pop();
  return file ? [file, media.media_key] : [media.media_key];
}

/**
 * GET /2/dm_conversations/media/{dm_id}/{media_id}/{resource_id}: the bytes of a media attached to
 * a message event, only for a participant who may see that event (within their window in the
 * conversation). Anyone else learns only that they may not: 403 when the event exists.
 */
export async function dmMediaFile(ctx: PlatformContext, caller: UserCaller, dmId: string, mediaId: string, resourceId: string): Promise<DmMediaFile> {
  requireDmAccess(caller);
  const db = ctx.store.db;
  const [event] = await eventsVisibleTo(db, caller.user.id, { types: ['MessageCreate'], eventId: dmId, limit: 1 });
  if (!event) {
    const exists = await db.selectFrom('dm_events').select('id').where('id', '=', dmId).where('deleted_at', 'is', null).executeTakeFirst();
    if (exists) throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Only participants of its conversation can download the media of DM event ${dmId}.`));
    throw notFound(`Could not find DM event with dm_id: [${dmId}].`);
  }
  const keys = fromJson<string[]>(event.media_keys) ?? [];
  const [media] = (await findMediaByIds(db, [mediaId])).filter((m) => keys.includes(m.media_key));
  if (!media) throw notFound(`DM event ${dmId} has no media with media_id: [${mediaId}].`);
  if (!resourceIdsOf(media).includes(resourceId)) throw notFound(`Media ${mediaId} has no resource [${resourceId}].`);
  const file = media.file_path ? await ctx.media.open(media.file_path) : undefined;
  if (!file) throw notFound(`The file of media ${mediaId} is no longer stored.`);
  return { ...file, mimeType: media.mime_type };
}
