import fs from 'node:fs';
import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { fromJson, toJson, type DbOrTx } from '../../store/store.js';
import { requireWriteAccess } from '../graph/access.js';
import { findUsersByIds } from '../users/store.js';
import { duskScene } from './png.js';
import { mediaFileUrl } from './files.js';
import { assemblyFile } from './blobs.js';
import { EXTENSIONS, ProbeError, bufferSource, probe, probeFile, type Probed } from './probe.js';
import { SUBTITLES_MAX_BYTES } from './srt.js';
import { findMediaByIdList, findUpload, insertMedia, insertUpload, moveUpload, type MediaUploadRow } from './store.js';
import type { MediaRow } from './wire.js';

/**
 * Media upload (POST /2/media/upload, simple and chunked): the bytes go to disk, their real type
 * and dimensions are read from the file itself, and a media row with its media_key is stored.
 * Limits of the public platform (shared/reference S167 and its upload guide): images 5 MB,
 * GIFs 15 MB, videos 512 MB; an uploaded media can be attached for 24 hours. Subtitles
 * (media_category=subtitles) are SubRip (SRT) text of at most 1 MB, checked cue by cue.
 */
export const MEDIA_EXPIRES_AFTER_SECS = 24 * 60 * 60;
const MB = 1024 * 1024;
type MediaType = MediaRow['type'];
export const MEDIA_LIMITS: Readonly<Record<MediaType, number>> = { photo: 5 * MB, animated_gif: 15 * MB, video: 512 * MB, subtitles: SUBTITLES_MAX_BYTES };
const LIMIT_LABEL: Readonly<Record<MediaType, string>> = {
  photo: 'an image may be at most 5 MB', animated_gif: 'a GIF may be at most 15 MB', video: 'a video may be at most 512 MB', subtitles: 'a subtitle file may be at most 1 MB',
};

/** Categories, with 'tweet' renamed 'post' as the spec does (the public names are accepted too). */
const CATEGORY_TYPE: Readonly<Record<string, MediaType>> = {
  post_image: 'photo',
  post_gif: 'animated_gif',
  post_video: 'video',
  dm_image: 'photo',
  dm_gif: 'animated_gif',
  dm_video: 'video',
  amplify_video: 'video',
  subtitles: 'subtitles',
};
const CATEGORY_ALIASES: Readonly<Record<string, string>> = { tweet_image: 'post_image', tweet_gif: 'post_gif', tweet_video: 'post_video' };
export const MEDIA_CATEGORY_VALUES = [...Object.keys(CATEGORY_TYPE), ...Object.keys(CATEGORY_ALIASES)];

/** The media_type values of a chunked INIT Plaza can take, and what each may be. */
const SUPPORTED_TYPES: Readonly<Record<string, Probed['mime']>> = {
  'image/jpeg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/webp': 'image/webp',
  'image/gif': 'image/gif',
  'video/mp4': 'video/mp4',
  'video/quicktime': 'video/quicktime',
  'text/srt': 'text/srt',
};
export const MEDIA_TYPE_VALUES = [
  'video/mp4', 'video/webm', 'video/mp2t', 'video/quicktime', 'text/srt', 'text/vtt', 'image/jpeg', 'image/gif', 'image/bmp',
  'image/png', 'image/webp', 'image/pjpeg', 'image/tiff', 'model/gltf-binary', 'model/vnd.usdz+zip',
];

const KEY_PREFIX: Readonly<Record<MediaType, string>> = { photo: '3', video: '7', animated_gif: '16', subtitles: '15' };

export interface UploadData {
  id: string;
  media_key: string;
  size?: number;
  expires_after_secs: number;
  image?: { image_type: string; w: number; h: number };
  video?: { video_type: string };
  processing_info?: { state: string; progress_percent: number };
}

function bad(name: string, value: string | undefined, message: string): ProblemError {
  return invalidParameter(name, value === undefined ? [] : [value], message);
}

function normalizeCategory(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const category = CATEGORY_ALIASES[raw] ?? raw;
  if (!(category in CATEGORY_TYPE)) throw bad('media_category', raw, `The \`media_category\` value [${raw}] is not one of [${MEDIA_CATEGORY_VALUES.join(',')}]`);
  return category;
}

function categoryFor(mime: Probed['mime'], declared: string | undefined): string {
  if (declared) return declared;
  if (mime === 'text/srt') return 'subtitles';
  if (mime === 'image/gif') return 'post_gif';
  return mime.startsWith('video/') ? 'post_video' : 'post_image';
}

/** The media type a file of `mime` becomes in `category`, or why it cannot. */
function mediaTypeOf(mime: Probed['mime'], category: string, categoryParam: string): MediaType {
  const type = CATEGORY_TYPE[category];
  if (type === 'subtitles' && mime !== 'text/srt') {
    throw bad(categoryParam, category, `The \`${categoryParam}\` value [${category}] does not fit the uploaded file, which is ${mime}: ${mime} is not supported as subtitles, which are SubRip (SRT) text`);
  }
  const fits = type === 'subtitles' || (type === 'video' ? mime.startsWith('video/') : type === 'animated_gif' ? mime === 'image/gif' : mime.startsWith('image/'));
  if (!fits) throw bad(categoryParam, category, `The \`${categoryParam}\` value [${category}] does not fit the uploaded file, which is ${mime}`);
  return type;
}

function checkSize(parameter: string, type: MediaType, bytes: number): void {
  if (bytes > MEDIA_LIMITS[type]) {
    throw bad(parameter, String(bytes), `The \`${parameter}\` is ${bytes} bytes; ${LIMIT_LABEL[type]} (${MEDIA_LIMITS[type]} bytes)`);
  }
}

async function checkAdditionalOwners(db: DbOrTx, ids: readonly string[] | undefined): Promise<string[]> {
  const owners = [...new Set(ids ?? [])];
  if (owners.length > 100) throw bad('additional_owners', undefined, 'The `additional_owners` list may name at most 100 users');
  const bad_ = owners.filter((id) => !/^[0-9]{1,19}$/.test(id));
  if (bad_.length) throw bad('additional_owners', bad_[0], `The \`additional_owners\` value [${bad_[0]}] does not match ^[0-9]{1,19}$`);
  const found = new Set((await findUsersByIds(db, owners)).map((u) => u.id));
  const missing = owners.find((id) => !found.has(id));
  if (missing) throw bad('additional_owners', missing, `The \`additional_owners\` value [${missing}] is not a user`);
  return owners;
}

/** A video's poster frame: Plaza cannot decode video, so it generates one of the video's shape (at most 640 wide). */
const POSTER_WIDTH = 640;
async function keepPoster(ctx: PlatformContext, key: string, type: MediaType, probed: Probed): Promise<void> {
  if (type !== 'video') return;
  const width = Math.max(1, Math.min(POSTER_WIDTH, probed.width ?? POSTER_WIDTH));
  const height = Math.max(1, Math.round(width * ((probed.height ?? 360) / Math.max(1, probed.width ?? 640))));
  await ctx.media.put(`${key}.png`, duskScene(width, Math.min(height, 4 * POSTER_WIDTH), [34, 40, 80], [210, 120, 90]));
}

function mediaRow(ctx: PlatformContext, p: { id: string; key: string; owner: string; type: MediaType; probed: Probed; size: number; file: string; category: string; owners: string[]; baseUrl: string }): MediaRow {
  const url = mediaFileUrl(ctx, p.baseUrl, p.key, EXTENSIONS[p.probed.mime]);
  // A video's preview is its poster frame (keepPoster), a GIF's the GIF itself.
  const pictured = p.type !== 'subtitles';
  const variants = p.type === 'photo' || !pictured ? [] : [{ ...(p.type === 'video' && p.probed.durationMs ? { bit_rate: Math.round((p.size * 8 * 1000) / p.probed.durationMs) } : {}), content_type: p.probed.mime, url }];
  return {
    media_key: p.key,
    id: p.id,
    owner_user_id: p.owner,
    type: p.type,
    url,
    preview_image_url: p.type === 'animated_gif' ? url : p.type === 'video' ? mediaFileUrl(ctx, p.baseUrl, p.key, 'png') : null,
    width: pictured ? p.probed.width : null,
    height: pictured ? p.probed.height : null,
    duration_ms: p.type === 'video' ? p.probed.durationMs ?? 0 : null,
    alt_text: null,
    metadata: null,
    view_count: 0,
    variants: toJson(variants),
    mime_type: p.probed.mime,
    size_bytes: p.size,
    file_path: p.file,
    source_post_id: null,
    created_at: ctx.clock.now().toISOString(),
    media_category: p.category,
    additional_owners: p.owners.length ? toJson(p.owners) : null,
  };
}

/** The `data` of an upload response: what was stored, and processing done (Plaza processes at once). */
export function uploadData(row: MediaRow): UploadData {
  const data: UploadData = { id: row.id, media_key: row.media_key, size: row.size_bytes, expires_after_secs: MEDIA_EXPIRES_AFTER_SECS };
  if (row.type === 'photo') data.image = { image_type: row.mime_type, w: row.width ?? 0, h: row.height ?? 0 };
  else if (row.type === 'subtitles') return data;
  else {
    data.video = { video_type: row.mime_type };
    data.processing_info = { state: 'succeeded', progress_percent: 100 };
  }
  return data;
}

function probeOrRefuse<T>(parameter: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ProbeError) throw bad(parameter, undefined, `The \`${parameter}\` file ${err.message}`);
    throw err;
  }
}

/**
 * Stores whole-file bytes as a media of `ownerId`: checked, written to disk, and recorded on `db`
 * (the file is removed again when the row cannot be written). Used by simple uploads and the seed.
 */
export async function storeMediaBytes(
  ctx: PlatformContext,
  db: DbOrTx,
  p: { ownerId: string; bytes: Buffer; parameter: string; category?: string; additionalOwners?: string[]; baseUrl: string; altText?: string },
): Promise<MediaRow> {
  const declared = normalizeCategory(p.category);
  if (p.bytes.length === 0) throw bad(p.parameter, undefined, `The \`${p.parameter}\` file is empty`);
  const probed = probeOrRefuse(p.parameter, () => probe(bufferSource(p.bytes), declared === 'subtitles'));
  const category = categoryFor(probed.mime, declared);
  const type = mediaTypeOf(probed.mime, category, 'media_category');
  checkSize(p.parameter, type, p.bytes.length);
  const owners = await checkAdditionalOwners(db, p.additionalOwners);
  const id = ctx.ids.next();
  const key = `${KEY_PREFIX[type]}_${id}`;
  const blobs = ctx.media;
  const file = await blobs.put(`${key}.${EXTENSIONS[probed.mime]}`, p.bytes);
  const row = { ...mediaRow(ctx, { id, key, owner: p.ownerId, type, probed, size: p.bytes.length, file, category, owners, baseUrl: p.baseUrl }), alt_text: p.altText ?? null };
  try {
    await keepPoster(ctx, key, type, probed);
    await insertMedia(db, row);
  } catch (err) {
    await blobs.remove(file).catch(() => {});
    throw err;
  }
  return row;
}

/** Simple upload: the whole file in one request (multipart `media`, or base64 `media`/`media_data`). */
export async function uploadSimple(
  ctx: PlatformContext,
  caller: UserCaller,
  input: { bytes: Buffer; parameter: string; category?: string; additionalOwners?: string[] },
  baseUrl: string,
): Promise<UploadData> {
  requireWriteAccess(caller);
  return uploadData(await storeMediaBytes(ctx, ctx.store.db, { ownerId: caller.user.id, ...input, baseUrl }));
}

/** Chunked upload, INIT: declares the size and type; the media id and key exist from here on. */
export async function initUpload(
  ctx: PlatformContext,
  caller: UserCaller,
  input: { totalBytes?: number; mediaType?: string; category?: string; additionalOwners?: string[] },
): Promise<UploadData> {
  requireWriteAccess(caller);
  if (input.mediaType === undefined) throw bad('media_type', undefined, 'The `media_type` parameter is missing: INIT needs the MIME type of the file');
  if (input.totalBytes === undefined) throw bad('total_bytes', undefined, 'The `total_bytes` parameter is missing: INIT needs the size of the file in bytes');
  const mime = SUPPORTED_TYPES[input.mediaType];
  if (!mime) {
    throw bad('media_type', input.mediaType, `The \`media_type\` value [${input.mediaType}] is not supported by Plaza; use one of [${Object.keys(SUPPORTED_TYPES).join(',')}]`);
  }
  const category = categoryFor(mime, normalizeCategory(input.category));
  const type = mediaTypeOf(mime, category, 'media_category');
  if (!Number.isSafeInteger(input.totalBytes) || input.totalBytes < 1) throw bad('total_bytes', String(input.totalBytes), 'The `total_bytes` value must be a whole number of bytes, at least 1');
  checkSize('total_bytes', type, input.totalBytes);
  const owners = await checkAdditionalOwners(ctx.store.db, input.additionalOwners);
  const id = ctx.ids.next();
  const now = ctx.clock.now();
  const row: MediaUploadRow = {
    id,
    media_key: `${KEY_PREFIX[type]}_${id}`,
    owner_user_id: caller.user.id,
    media_type: input.mediaType,
    media_category: category,
    total_bytes: input.totalBytes,
    additional_owners: toJson(owners),
    state: 'uploading',
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + MEDIA_EXPIRES_AFTER_SECS * 1000).toISOString(),
  };
  await insertUpload(ctx.store.db, row);
  return { id, media_key: row.media_key, expires_after_secs: MEDIA_EXPIRES_AFTER_SECS };
}

/** The caller's own upload session, still open: others' sessions are as unknown as missing ones. */
async function openSession(ctx: PlatformContext, caller: UserCaller, mediaId: string | undefined): Promise<MediaUploadRow> {
  if (mediaId === undefined) throw bad('media_id', undefined, 'The `media_id` parameter is missing');
  if (!/^[0-9]{1,19}$/.test(mediaId)) throw bad('media_id', mediaId, `The \`media_id\` value [${mediaId}] does not match ^[0-9]{1,19}$`);
  const session = await findUpload(ctx.store.db, mediaId);
  if (!session || session.owner_user_id !== caller.user.id) {
    throw new ProblemError(404, problems.resourceNotFound({ parameter: 'media_id', value: mediaId, resource_id: mediaId, resource_type: 'media', detail: `Could not find an upload with media_id: [${mediaId}].` }));
  }
  if (session.state !== 'uploading' && session.state !== 'expired') throw bad('media_id', mediaId, `The upload [${mediaId}] has already been finalized`);
  if (uploadExpired(session, ctx.clock.now())) throw bad('media_id', mediaId, `The upload [${mediaId}] expired at ${session.expires_at}; start again with INIT`);
  return session;
}

/** An upload session (media or chat media) is expired once the sweep marked it so or its 24 hours ran out. */
export function uploadExpired(session: { state: string; expires_at: string }, now: Date): boolean {
  return session.state === 'expired' || session.expires_at <= now.toISOString();
}

/** Chunked upload, APPEND: one segment (0 to 999); sending an index again replaces that segment. */
export async function appendUpload(
  ctx: PlatformContext,
  caller: UserCaller,
  input: { mediaId?: string; segmentIndex?: number; bytes?: Buffer; parameter: string },
): Promise<{ expires_at: number }> {
  requireWriteAccess(caller);
  const session = await openSession(ctx, caller, input.mediaId);
  const index = input.segmentIndex;
  if (index === undefined) throw bad('segment_index', undefined, 'The `segment_index` parameter is missing');
  if (!Number.isInteger(index) || index < 0 || index > 999) throw bad('segment_index', String(index), `The \`segment_index\` value [${index}] is not between 0 and 999`);
  if (!input.bytes || input.bytes.length === 0) throw bad(input.parameter, undefined, `The \`${input.parameter}\` segment is missing or empty`);
  const blobs = ctx.media;
  const others = [...(await blobs.segments(session.id))].filter(([i]) => i !== index).reduce((sum, [, size]) => sum + size, 0);
  if (others + input.bytes.length > session.total_bytes) {
    throw bad(input.parameter, undefined, `The \`${input.parameter}\` segment would bring the upload to ${others + input.bytes.length} bytes, more than its total_bytes of ${session.total_bytes}`);
  }
  await blobs.putSegment(session.id, index, input.bytes);
  return { expires_at: Math.floor(new Date(session.expires_at).getTime() / 1000) };
}

/** Chunked upload, FINALIZE: segments 0..n-1 joined, checked against INIT, stored as media. */
export async function finalizeUpload(ctx: PlatformContext, caller: UserCaller, mediaId: string | undefined, baseUrl: string): Promise<UploadData> {
  requireWriteAccess(caller);
  const session = await openSession(ctx, caller, mediaId);
  const blobs = ctx.media;
  const segments = await blobs.segments(session.id);
  const ordered = [...segments.keys()].sort((a, b) => a - b);
  const gap = ordered.findIndex((index, i) => index !== i);
  if (ordered.length === 0) throw bad('segment_index', undefined, `The upload [${session.id}] has no segments: APPEND segment 0 first`);
  if (gap !== -1) throw bad('segment_index', String(gap), `The upload [${session.id}] is missing segment ${gap}`);
  const size = ordered.reduce((sum, i) => sum + segments.get(i)!, 0);
  if (size !== session.total_bytes) {
    throw bad('total_bytes', String(session.total_bytes), `The upload [${session.id}] holds ${size} bytes, not the ${session.total_bytes} bytes INIT declared in total_bytes`);
  }
  // Claim the session so a concurrent FINALIZE cannot store the same media twice; a refused
  // file gives it back, so bad input changes nothing.
  if (!(await moveUpload(ctx.store.db, session.id, 'uploading', 'finalizing'))) {
    throw bad('media_id', session.id, `The upload [${session.id}] is already being finalized`);
  }
  const temp = assemblyFile(ctx, session.id);
  let file: string | undefined;
  let row: MediaRow;
  try {
    await blobs.assembleTo(session.id, ordered, temp);
    const probed = probeOrRefuse('media', () => probeFile(temp, session.media_category === 'subtitles'));
    if (SUPPORTED_TYPES[session.media_type] !== probed.mime) {
      throw bad('media_type', session.media_type, `The uploaded file is ${probed.mime}, not the ${session.media_type} INIT declared in media_type`);
    }
    const type = mediaTypeOf(probed.mime, session.media_category, 'media_category');
    file = await blobs.keep(session.id, ordered, temp, `${session.media_key}.${EXTENSIONS[probed.mime]}`);
    await keepPoster(ctx, session.media_key, type, probed);
    row = mediaRow(ctx, {
      id: session.id, key: session.media_key, owner: session.owner_user_id, type, probed, size, file,
      category: session.media_category, owners: fromJson<string[]>(session.additional_owners) ?? [], baseUrl,
    });
    await ctx.store.db.transaction().execute(async (tx) => {
      await moveUpload(tx, session.id, 'finalizing', 'finalized');
      await insertMedia(tx, row);
    });
  } catch (err) {
    // A refused file (checked before it is kept) leaves the upload's segments as they were; a
    // failure after keep (the store's, not the client's) removes what was kept.
    if (file) await blobs.remove(file).catch(() => {});
    await moveUpload(ctx.store.db, session.id, 'finalizing', 'uploading');
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  await blobs.dropUpload(session.id);
  return uploadData(row);
}

/** STATUS: the processing state of the caller's upload (Plaza's processing is done when FINALIZE answers). */
export async function uploadStatus(ctx: PlatformContext, caller: UserCaller, mediaId: string): Promise<UploadData> {
  const [row] = await findMediaByIdList(ctx.store.db, [mediaId]);
  if (row && row.owner_user_id === caller.user.id) return { ...uploadData(row), processing_info: { state: 'succeeded', progress_percent: 100 } };
  const session = await findUpload(ctx.store.db, mediaId);
  if (session && session.owner_user_id === caller.user.id) {
    if (uploadExpired(session, ctx.clock.now())) throw bad('media_id', mediaId, `The upload [${mediaId}] expired at ${session.expires_at} before FINALIZE; start again with INIT`);
    throw bad('media_id', mediaId, `The upload [${mediaId}] has not been finalized: send FINALIZE first`);
  }
  throw new ProblemError(404, problems.resourceNotFound({ parameter: 'media_id', value: mediaId, resource_id: mediaId, resource_type: 'media', detail: `Could not find media with media_id: [${mediaId}].` }));
}

/**
 * The media a new post attaches (`media.media_ids`): uploaded by the caller or naming it among
 * additional_owners, still within 24 hours of upload, made for posts (not direct messages), and
 * as the public platform allows them together: up to 4 images, or one GIF, or one video.
 */
export async function attachableMedia(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, ids: readonly string[]): Promise<MediaRow[]> {
  const parameter = 'media.media_ids';
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw bad(parameter, duplicate, `The \`${parameter}\` list names [${duplicate}] twice`);
  const rows = await findMediaByIdList(db, ids);
  const now = ctx.clock.now().getTime();
  const ordered: MediaRow[] = [];
  for (const id of ids) {
    const row = rows.find((m) => m.id === id);
    const owners = fromJson<string[]>(row?.additional_owners ?? null) ?? [];
    if (!row || (row.owner_user_id !== caller.user.id && !owners.includes(caller.user.id))) {
      throw bad(parameter, id, `The \`${parameter}\` value [${id}] is not a media id you uploaded or may use`);
    }
    if (new Date(row.created_at).getTime() + MEDIA_EXPIRES_AFTER_SECS * 1000 <= now) {
      throw bad(parameter, id, `The \`${parameter}\` value [${id}] has expired: media can be attached within 24 hours of upload`);
    }
    if (row.media_category?.startsWith('dm_')) throw bad(parameter, id, `The \`${parameter}\` value [${id}] was uploaded for direct messages (${row.media_category}), not for posts`);
    refuseSubtitleFile(parameter, row);
    ordered.push(row);
  }
  const single = ordered.find((m) => m.type !== 'photo');
  if (single && ordered.length > 1) {
    throw bad(parameter, single.id, `The \`${parameter}\` list may hold up to 4 images, or one GIF, or one video; [${single.id}] is a ${single.type === 'video' ? 'video' : 'GIF'}`);
  }
  return ordered;
}

/**
 * A subtitle file is given to a video (POST /2/media/subtitles) and never shown on its own: a post,
 * a direct message or an article that names one is refused, naming the parameter.
 */
export function refuseSubtitleFile(parameter: string, row: MediaRow): void {
  if (row.type === 'subtitles') {
    throw bad(parameter, row.id, `The \`${parameter}\` value [${row.id}] is a subtitle file: attach the video and give it the subtitles with POST /2/media/subtitles`);
  }
}

/** The parameters of POST /2/media/upload, wherever they came from (query, JSON, form or multipart). */
export interface UploadParams {
  command?: 'INIT' | 'APPEND' | 'FINALIZE';
  mediaId?: string;
  segmentIndex?: number;
  totalBytes?: number;
  mediaType?: string;
  category?: string;
  additionalOwners?: string[];
  bytes?: Buffer;
  /** The parameter that carried `bytes` (media or media_data). */
  parameter: string;
}

/** POST /2/media/upload: a simple upload without `command`, or one step of a chunked upload. */
export async function mediaUpload(ctx: PlatformContext, caller: UserCaller, p: UploadParams, baseUrl: string): Promise<UploadData | { expires_at: number }> {
  switch (p.command) {
    case 'INIT':
      return initUpload(ctx, caller, { totalBytes: p.totalBytes, mediaType: p.mediaType, category: p.category, additionalOwners: p.additionalOwners });
    case 'APPEND':
      return appendUpload(ctx, caller, { mediaId: p.mediaId, segmentIndex: p.segmentIndex, bytes: p.bytes, parameter: p.parameter });
    case 'FINALIZE':
      return finalizeUpload(ctx, caller, p.mediaId, baseUrl);
    default:
      if (!p.bytes) throw bad('media', undefined, 'The `media` field is missing: send the file as `media` (multipart or base64) or `media_data` (base64), or a `command` for a chunked upload');
      return uploadSimple(ctx, caller, { bytes: p.bytes, parameter: p.parameter, category: p.category, additionalOwners: p.additionalOwners }, baseUrl);
  }
}
