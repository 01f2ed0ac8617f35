import type { PlatformContext } from '../context.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { addCommunityMember, insertCommunity } from '../communities/store.js';
import { mediaFileUrl } from '../media/files.js';
import { duskScene } from '../media/png.js';
import { platformBaseUrl } from '../media/public-url.js';
import { storeMediaBytes } from '../media/service.js';
import { insertPoll } from '../polls/store.js';
import { findUsersByUsernames } from '../users/store.js';
import { editedPostRow, newPostRow, recordPost, repostText, type NewPost } from './build.js';
import { supersede, updateChain } from './store.js';
import { editHistoryOf, type PostRow } from './wire.js';

/**
 * The writing side of the demo workspace, inside seedDemo's transaction and written as the
 * endpoints write it: real image files on disk behind the seeded photo and new ones, a poll with
 * votes, a community with members and posts (one shared with followers), a thread, reposts and
 * an edited post. Returns sample ids for the credentials file.
 */
export async function seedPostsDemo(ctx: PlatformContext, tx: DbOrTx, seeded: { withMedia: PostRow; announcement: PostRow }): Promise<{ post_ids: string[]; media_keys: string[] }> {
  const users = await findUsersByUsernames(tx, ['ada', 'plazanews', 'chen', 'dana']);
  const by = (username: string) => users.find((u) => u.username === username);
  const [ada, news, chen, dana] = ['ada', 'plazanews', 'chen', 'dana'].map(by);
  if (!ada || !news || !chen || !dana) return { post_ids: [], media_keys: [] };
  const baseUrl = platformBaseUrl(ctx);
  const now = ctx.clock.now().getTime();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);

  // The photo of Ada's first post gets real bytes of its size.
  const photo = await tx.selectFrom('media').selectAll().where('owner_user_id', '=', ada.id).where('type', '=', 'photo').where('file_path', 'is', null).executeTakeFirst();
  if (photo) {
    const bytes = duskScene(photo.width ?? 1200, photo.height ?? 800, [255, 150, 90], [70, 50, 130]);
    const file = await ctx.media.put(`${photo.media_key}.png`, bytes);
    await tx
      .updateTable('media')
      .set({ url: mediaFileUrl(ctx, baseUrl, photo.media_key, 'png'), file_path: file, size_bytes: bytes.length, mime_type: 'image/png', media_category: 'post_image' })
      .where('media_key', '=', photo.media_key)
      .execute();
  }

  const post = async (authorId: string, minutesAgo: number, text: string, extra: Partial<NewPost> = {}): Promise<PostRow> => {
    const row = newPostRow(ctx.ids.next(), { authorId, text, createdAt: at(minutesAgo), source: 'Plaza Demo', ...extra });
    await recordPost(ctx, tx, row);
    return row;
  };
  const image = (ownerId: string, top: [number, number, number], bottom: [number, number, number], altText: string) =>
    storeMediaBytes(ctx, tx, { ownerId, bytes: duskScene(640, 360, top, bottom), parameter: 'media', category: 'post_image', baseUrl, altText });

  const banner = await image(news.id, [250, 210, 120], [40, 90, 160], 'The Plaza launch banner over the square');
  const backstage = await post(news.id, 45, 'Behind the scenes of launch day. #launch', { mediaKeys: [banner.media_key] });

  const pollPost = await post(news.id, 40, 'What should Plaza build next?');
  const poll = await insertPoll(tx, { id: ctx.ids.next(), postId: pollPost.id, labels: ['Search', 'Streams', 'Ads', 'Community notes'], durationMinutes: 24 * 60, createdAt: at(40), votes: [12, 30, 5, 8] });
  await tx.updateTable('posts').set({ poll_ids: toJson([poll.id]) }).where('id', '=', pollPost.id).execute();

  const community = { id: ctx.ids.next(), name: 'Plaza Builders', description: 'People building on Plaza: share what you make.', access: 'Public', join_policy: 'Open', creator_id: news.id, member_count: 0, created_at: at(60 * 24 * 30).toISOString() };
  await insertCommunity(tx, community);
  for (const [user, role] of [[news, 'admin'], [ada, 'member'], [chen, 'member']] as const) {
    await addCommunityMember(tx, { id: ctx.ids.next(), communityId: community.id, userId: user.id, role, at: community.created_at });
  }
  await post(chen.id, 35, 'First build log: a bot that welcomes new members of Plaza Builders.', { communityId: community.id });
  const sketches = await image(ada.id, [230, 120, 150], [30, 30, 60], 'Pencil sketches of a mural');
  const mural = await post(ada.id, 30, 'Sketches for the community mural. Feedback welcome! #plaza', { communityId: community.id, shareWithFollowers: true, mediaKeys: [sketches.media_key] });
  await post(ada.id, 28, 'More sketches tomorrow, with colour.', { replyTo: mural, communityId: community.id });

  for (const [reposter, source, author] of [[dana, seeded.announcement, news], [chen, seeded.withMedia, ada]] as const) {
    await post(reposter.id, 15, repostText(author.username, source), { repostOf: source });
  }

  // An edit, as POST /2/posts with edit_options makes it (Ada has a paid subscription).
  const typo = await post(ada.id, 10, 'Editing works for Premium subscibers within the hour.');
  const fixed = editedPostRow(ctx.ids.next(), typo, { text: 'Editing works for Premium subscribers within the hour.', createdAt: at(8), source: 'Plaza Demo' });
  await supersede(tx, typo.id, fixed.id);
  await recordPost(ctx, tx, fixed, { edit: true });
  await updateChain(tx, editHistoryOf(typo), fixed.edit_history_post_ids, fixed.edit_controls);

  return { post_ids: [pollPost.id, mural.id, fixed.id, backstage.id], media_keys: [banner.media_key, sketches.media_key] };
}
