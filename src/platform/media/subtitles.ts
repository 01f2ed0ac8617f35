import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import type { MediaSubtitleTable } from '../../store/schema-media-subtitles.js';
import { requireWriteAccess } from '../graph/access.js';
import { ownMedia } from './manage.js';
import { MEDIA_EXPIRES_AFTER_SECS } from './service.js';
import type { MediaRow } from './wire.js';

/**
 * Subtitle tracks of videos (shared/reference S167 POST and DELETE /2/media/subtitles): the owner
 * of a video gives it an SRT file they uploaded with media_category=subtitles, one track per
 * language; a second track in a language replaces the first.
 */

/** The reference's media_category values ('Tweet' renamed 'Post'; the public name is accepted too) and the upload category each stands for. */
const TARGET_CATEGORIES: Readonly<Record<string, string>> = { AmplifyVideo: 'amplify_video', PostVideo: 'post_video', TweetVideo: 'post_video' };
export const SUBTITLE_TARGET_CATEGORIES = Object.keys(TARGET_CATEGORIES);
const CATEGORY_NAME: Readonly<Record<string, string>> = { amplify_video: 'AmplifyVideo', post_video: 'PostVideo' };
export const LANGUAGE_CODE = /^[A-Z]{2}$/;
export const LANGUAGE_CODE_TEXT = '^[A-Z]{2}$';
export const DISPLAY_NAME_MAX = 100;

export interface SubtitleTrack {
  display_name: string;
  id: string;
  language_code: string;
}

export interface CreateSubtitlesInput {
  id: string;
  media_category?: string;
  subtitles: { display_name?: string; id: string; language_code: string };
}

export interface DeleteSubtitlesInput {
  id: string;
  media_category: string;
  language_code: string;
}

// --- store ---

async function upsertTrack(db: DbOrTx, row: MediaSubtitleTable): Promise<void> {
  await db
    .insertInto('media_subtitles')
    .values(row)
    .onConflict((oc) => oc.columns(['media_id', 'language_code']).doUpdateSet({ subtitle_media_id: row.subtitle_media_id, display_name: row.display_name, updated_at: row.updated_at }))
    .execute();
}

async function tracksOf(db: DbOrTx, mediaId: string): Promise<MediaSubtitleTable[]> {
  return db.selectFrom('media_subtitles').selectAll().where('media_id', '=', mediaId).orderBy('language_code').execute();
}

async function deleteTrack(db: DbOrTx, mediaId: string, languageCode: string): Promise<boolean> {
  const result = await db.deleteFrom('media_subtitles').where('media_id', '=', mediaId).where('language_code', '=', languageCode).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// --- rules ---

function checkLanguage(parameter: string, code: string): void {
  if (!LANGUAGE_CODE.test(code)) throw invalidValue(parameter, code, `The \`${parameter}\` value [${code}] is not a two-letter language code in capitals (${LANGUAGE_CODE_TEXT}), e.g. EN`);
}

/**
 * The caller's video the subtitles are for: a video uploaded for posts or as an amplify video
 * (the categories the reference names), of the media_category the request says when it says one.
 * Answers the category's name in the request's spelling.
 */
async function targetVideo(db: DbOrTx, caller: UserCaller, id: string, category: string | undefined): Promise<{ video: MediaRow; categoryName: string }> {
  const video = await ownMedia(db, caller, id, 'id');
  const uploaded = video.media_category ?? (video.type === 'video' ? 'post_video' : null);
  if (video.type !== 'video' || (uploaded !== 'post_video' && uploaded !== 'amplify_video')) {
    const what = video.type === 'video' ? `a video uploaded for ${uploaded}` : video.type === 'animated_gif' ? 'a GIF' : video.type === 'photo' ? 'an image' : 'a subtitle file';
    throw invalidValue('id', id, `The \`id\` value [${id}] is ${what}: subtitles go with videos uploaded as post_video (tweet_video) or amplify_video`);
  }
  if (category === undefined) return { video, categoryName: CATEGORY_NAME[uploaded] };
  if (TARGET_CATEGORIES[category] !== uploaded) {
    throw invalidValue('media_category', category, `The \`media_category\` value [${category}] does not fit the media [${id}], which is ${CATEGORY_NAME[uploaded]}`);
  }
  return { video, categoryName: category };
}

/** POST /2/media/subtitles: the track is stored (replacing the language's track, if any); answers every track of the video. */
export async function createMediaSubtitles(
  ctx: PlatformContext,
  caller: UserCaller,
  input: CreateSubtitlesInput,
): Promise<{ id: string; media_category: string; associated_subtitles: { subtitles: SubtitleTrack[] } }> {
  requireWriteAccess(caller);
  const { subtitles } = input;
  checkLanguage('subtitles.language_code', subtitles.language_code);
  if (!/^[0-9]{1,19}$/.test(subtitles.id)) throw invalidValue('subtitles.id', subtitles.id, `The \`subtitles.id\` value [${subtitles.id}] does not match ^[0-9]{1,19}$`);
  const displayName = (subtitles.display_name ?? subtitles.language_code).trim();
  if (displayName === '') throw invalidValue('subtitles.display_name', subtitles.display_name, 'The `subtitles.display_name` value is empty: name the language as people read it, e.g. English');
  if ([...displayName].length > DISPLAY_NAME_MAX) {
    throw invalidValue('subtitles.display_name', subtitles.display_name, `The \`subtitles.display_name\` value is longer than ${DISPLAY_NAME_MAX} characters`);
  }
  return ctx.store.db.transaction().execute(async (tx) => {
    const { video, categoryName } = await targetVideo(tx, caller, input.id, input.media_category);
    const file = await ownMedia(tx, caller, subtitles.id, 'subtitles.id');
    if (file.type !== 'subtitles') {
      throw invalidValue('subtitles.id', subtitles.id, `The \`subtitles.id\` value [${subtitles.id}] is not a subtitle file: upload SubRip (SRT) text with media_category=subtitles`);
    }
    const now = ctx.clock.now();
    if (new Date(file.created_at).getTime() + MEDIA_EXPIRES_AFTER_SECS * 1000 <= now.getTime()) {
      throw invalidValue('subtitles.id', subtitles.id, `The \`subtitles.id\` value [${subtitles.id}] has expired: an uploaded subtitle file can be used within 24 hours of upload`);
    }
    const at = now.toISOString();
    await upsertTrack(tx, { media_id: video.id, language_code: subtitles.language_code, subtitle_media_id: file.id, display_name: displayName, created_at: at, updated_at: at });
    const tracks = (await tracksOf(tx, video.id)).map((t) => ({ display_name: t.display_name, id: t.subtitle_media_id, language_code: t.language_code }));
    return { id: video.id, media_category: categoryName, associated_subtitles: { subtitles: tracks } };
  });
}

/** DELETE /2/media/subtitles: removes the video's track in that language; a language without a track is not found. */
export async function deleteMediaSubtitles(ctx: PlatformContext, caller: UserCaller, input: DeleteSubtitlesInput): Promise<{ deleted: boolean }> {
  requireWriteAccess(caller);
  checkLanguage('language_code', input.language_code);
  return ctx.store.db.transaction().execute(async (tx) => {
    const { video } = await targetVideo(tx, caller, input.id, input.media_category);
    if (!(await deleteTrack(tx, video.id, input.language_code))) {
      throw new ProblemError(
        404,
        problems.resourceNotFound({
          parameter: 'language_code', value: input.language_code, resource_id: video.id, resource_type: 'media',
          detail: `Could not find subtitles in language [${input.language_code}] for media with id: [${video.id}].`,
        }),
      );
    }
    return { deleted: true };
  });
}
