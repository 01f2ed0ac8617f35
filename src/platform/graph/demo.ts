import type { PlatformContext } from '../context.js';
import type { DbOrTx } from '../../store/store.js';
import { recordBookmark } from '../bookmarks/service.js';
import { recordDirectMessage, recordGroup } from '../dm/service.js';
import { recordFollow } from '../follows/service.js';
import { insertFollowRequest } from '../follows/store.js';
import { recordLike } from '../likes/service.js';
import { recordList, recordListUser } from '../lists/service.js';
import { insertPin } from '../lists/store.js';
import { recordMute } from '../mutes/service.js';
import { newPostRow, recordPost } from '../posts/build.js';
import type { PostRow } from '../posts/wire.js';
import { recordSpace } from '../spaces/service.js';
import { pagedPosts, authoredBy } from '../timelines/store.js';
import { findUsersByUsernames } from '../users/store.js';
import { ALL_TIME } from '../timelines/store.js';

/**
 * The social side of the demo workspace, inside seedDemo's transaction: more follows (and a
 * pending request to the protected account), a few recent posts, likes, bookmarks, a mute, lists,
 * a live and a scheduled space, and direct messages, each written as the endpoints write it.
 */
export async function seedGraphDemo(ctx: PlatformContext, tx: DbOrTx): Promise<void> {
  const users = await findUsersByUsernames(tx, ['ada', 'bruno', 'plazanews', 'chen', 'dana']);
  const by = (username: string) => users.find((u) => u.username === username)!;
  const [ada, bruno, news, chen, dana] = ['ada', 'bruno', 'plazanews', 'chen', 'dana'].map(by);
  if (!ada || !bruno || !news || !chen || !dana) return;
  const postsOf = (authorId: string): Promise<PostRow[]> => pagedPosts(tx, authoredBy(authorId), ALL_TIME, 20);
  const adaPhoto = (await postsOf(ada.id)).find((p) => p.media_keys !== '[]');
  const announcement = (await postsOf(news.id))[0];
  if (!adaPhoto || !announcement) return;

  // Ada's own relations stay as the base seed made them (users.test.ts reads her connection_status).
  for (const [source, target] of [[chen, dana], [dana, chen], [news, chen]]) await recordFollow(ctx, tx, source.id, target.id);
  await insertFollowRequest(tx, ctx.ids.next(), chen.id, bruno.id, ctx.clock.now().toISOString());

  const now = ctx.clock.now().getTime();
  const post = async (author: typeof ada, minutesAgo: number, text: string) => {
    const row = newPostRow(ctx.ids.next(), { authorId: author.id, text, createdAt: new Date(now - minutesAgo * 60_000) });
    await recordPost(ctx, tx, row);
    return row;
  };
  await post(chen, 15, 'Reading the Plaza docs with @dana this afternoon.');
  const praise = await post(dana, 12, '@ada your photo from the plaza is lovely.');
  await post(news, 8, 'Tonight: a live space about the launch. Bring your questions! #launch');
  await post(bruno, 5, 'Approved followers only: dinner is at mine on Friday.');

  await recordLike(ctx, tx, dana.id, adaPhoto);
  await recordLike(ctx, tx, chen.id, announcement);
  await recordLike(ctx, tx, ada.id, announcement);
  await recordLike(ctx, tx, ada.id, praise);
  await recordBookmark(ctx, tx, ada.id, announcement);
  await recordBookmark(ctx, tx, dana.id, adaPhoto);
  await recordMute(ctx, tx, dana.id, news.id);

  const people = await recordList(ctx, tx, ada.id, { name: 'Plaza people', description: 'Everyone building Plaza' });
  for (const member of [news, chen, dana]) await recordListUser(ctx, tx, 'list_members', people.id, member.id);
  for (const follower of [chen, dana]) await recordListUser(ctx, tx, 'list_followers', people.id, follower.id);
  await insertPin(tx, ctx.ids.next(), ada.id, people.id, ctx.clock.now().toISOString());
  const close = await recordList(ctx, tx, ada.id, { name: 'Close friends', private: true });
  await recordListUser(ctx, tx, 'list_members', close.id, bruno.id);

  await recordSpace(ctx, tx, news.id, { title: 'Plaza launch AMA', host_ids: [ada.id], speaker_ids: [chen.id] });
  await recordSpace(ctx, tx, ada.id, { title: 'Photo walk planning', scheduled_start: new Date(now + 24 * 3_600_000).toISOString() });

  await recordDirectMessage(ctx, tx, chen.id, ada.id, { text: 'Did you see the launch post?' });
  await recordDirectMessage(ctx, tx, ada.id, chen.id, { text: `Yes! https://x.com/plazanews/status/${announcement.id}` });
  await recordGroup(ctx, tx, dana.id, [ada.id, chen.id], { text: 'Photo walk on Saturday? #plaza' });
}
