import type { PlatformContext } from '../../platform/context.js';
import { duskScene } from '../../platform/media/png.js';
import { platformBaseUrl } from '../../platform/media/public-url.js';
import { storeMediaBytes } from '../../platform/media/service.js';
import type { MediaTable, UserTable } from '../../store/schema.js';
import type { DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { createCard } from '../cards/service.js';
import { cardUri } from '../cards/wire.js';
import { createAdsPost } from '../posts/service.js';
import { promotePosts } from '../promoted/service.js';
import { addToLibrary } from './service.js';

/** An ISO base media box: size, type, content. */
function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/**
 * The headers of an MP4 of the given size and duration (ftyp, a small mdat, a moov with its movie
 * header and one video track header): what Plaza's probe reads. The demo has no video encoder, so
 * the frames are not playable; the file is what an upload of a real video of that shape declares.
 */
export function demoMp4(width: number, height: number, durationMs: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(durationMs, 16);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(width << 16, 76);
  tkhd.writeUInt32BE(height << 16, 80);
  return Buffer.concat([ftyp, box('mdat', Buffer.alloc(256)), box('moov', box('mvhd', mvhd), box('trak', box('tkhd', tkhd)))]);
}

/**
 * The creatives of a demo ads account, written through the same services as the endpoints: a
 * media library with an image and a video (the user's own uploads when they have them, else new
 * uploads: a picture and a 16:9 promo video, which is PREROLL account media too), a website card
 * showing the image, and a promoted-only post carrying the card, promoted by `lineItemId`.
 */
export async function seedAdsCreatives(ctx: PlatformContext, tx: DbOrTx, actor: AdsActor, account: AccountRow, user: UserTable, lineItemId: string): Promise<void> {
  const baseUrl = platformBaseUrl(ctx);
  const own = (type: MediaTable['type']) =>
    tx.selectFrom('media').selectAll().where('owner_user_id', '=', user.id).where('type', '=', type).orderBy('created_at').orderBy('id').executeTakeFirst();
  const image =
    (await own('photo')) ??
    (await storeMediaBytes(ctx, tx, { ownerId: user.id, bytes: duskScene(640, 360, [120, 180, 240], [20, 40, 90]), parameter: 'media', category: 'post_image', baseUrl, altText: `${user.name}'s banner` }));
  const video =
    (await own('video')) ?? (await storeMediaBytes(ctx, tx, { ownerId: user.id, bytes: demoMp4(1280, 720, 15_000), parameter: 'media', category: 'amplify_video', baseUrl }));
  await addToLibrary(actor, tx, account, { media_key: image.media_key, name: `${user.name} banner`, file_name: 'banner.png' });
  await addToLibrary(actor, tx, account, { media_key: video.media_key, name: `${user.name} promo`, file_name: 'promo.mp4', title: 'Meet us', description: `A short film about ${user.name}` });
  const card = await createCard(actor, tx, account, {
    name: `${user.name} website card`,
    components: [
      { type: 'MEDIA', media_key: image.media_key },
      { type: 'DETAILS', title: `Visit ${user.name}`, destination: { type: 'WEBSITE', url: `https://example.com/${user.username}` } },
    ],
  });
  const made = await createAdsPost(actor, tx, account, {
    as_user_id: user.id,
    text: 'Promoted only: tap the card to learn more.',
    card_uri: cardUri(card.id),
    nullcast: true,
    name: 'Demo promoted post',
    source: 'Plaza Demo',
  });
  await promotePosts(actor, tx, account, { line_item_id: lineItemId, post_ids: [made.post.id] });
}
