import { locationBeside } from './blobs.js';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestUrl } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { Listener } from '../../http/server.js';
import { fieldsParamOf, listParam, parseFieldSelection, parseSelectionText } from '../../http/fields.js';
import { parseList } from '../../http/params.js';
import { query, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, lookupBody, lookupResponse, ProblemSchema, writeResponse } from '../schemas.js';
import { MediaSchema } from './schema.js';
import { viewOf } from '../view.js';
import { ALT_TEXT_MAX, analyticsWindow, createMediaMetadata, lookupMedia, mediaAnalytics, recordPlayback, type Granularity } from './manage.js';
import { MEDIA_ANALYTICS_FIELDS, mediaDeclaration } from './wire.js';
import { registerPlatformServer } from './public-url.js';
import { findMediaByKeys } from './store.js';
import { MEDIA_CATEGORY_VALUES, MEDIA_TYPE_VALUES, uploadStatus, mediaUpload, type UploadParams } from './service.js';
import { DISPLAY_NAME_MAX, LANGUAGE_CODE_TEXT, SUBTITLE_TARGET_CATEGORIES, createMediaSubtitles, deleteMediaSubtitles } from './subtitles.js';

/** The largest file a single request carries: a 15 MB GIF; larger videos go in chunks. */
const MAX_REQUEST_FILE = 16 * 1024 * 1024;
/** Base64 makes 4 bytes of 3, plus the other fields. */
const MAX_REQUEST_BODY = 24 * 1024 * 1024;

const mediaAuth = { schemes: ['user' as const], scopes: ['media.write'] };
const idPattern = '^[0-9]{1,19}$';
const MEDIA_KEY_TEXT = '^([0-9]+)_([0-9]+)$';
const MEDIA_KEY = /^([0-9]+)_([0-9]+)$/;
const mediaKeysParam = Type.String({ description: 'A comma separated list of media keys, 1 to 100.' });
const parseMediaKeys = (raw: string) => parseList('media_keys', raw, { max: 100, pattern: MEDIA_KEY, patternText: MEDIA_KEY_TEXT });
/** alt_text and the other kinds of media metadata of the reference (CreateMediaMetadataMetadata). */
const metadataBody = Type.Object(
  {
    alt_text: Type.Optional(Type.Object({ text: Type.String({ maxLength: ALT_TEXT_MAX }) }, { additionalProperties: false })),
    allow_download_status: Type.Optional(Type.Object({ allow_download: Type.Boolean() }, { additionalProperties: false })),
    audience_policy: Type.Optional(Type.Object({})),
    content_expiration: Type.Optional(Type.Object({ timestamp_sec: Type.Number() }, { additionalProperties: false })),
    domain_restrictions: Type.Optional(Type.Object({ whitelist: Type.Array(Type.String()) }, { additionalProperties: false })),
    found_media_origin: Type.Optional(Type.Object({ id: Type.String(), provider: Type.String() }, { additionalProperties: false })),
    geo_restrictions: Type.Optional(Type.Object({})),
    management_info: Type.Optional(Type.Object({ managed: Type.Boolean() }, { additionalProperties: false })),
    preview_image: Type.Optional(Type.Object({ media_key: Type.Object({}) }, { additionalProperties: false })),
    sensitive_media_warning: Type.Optional(Type.Object({})),
    shared_info: Type.Optional(Type.Object({ shared: Type.Boolean() }, { additionalProperties: false })),
    sticker_info: Type.Optional(Type.Object({ stickers: Type.Array(Type.Object({})) }, { additionalProperties: false })),
    upload_source: Type.Optional(Type.Object({ upload_source: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

const uploadData = Type.Object(
  {
    id: Type.String({ pattern: idPattern }),
    media_key: Type.String(),
    size: Type.Optional(Type.Integer()),
    expires_after_secs: Type.Optional(Type.Integer()),
    image: Type.Optional(Type.Object({ image_type: Type.String(), w: Type.Integer(), h: Type.Integer() })),
    video: Type.Optional(Type.Object({ video_type: Type.String() })),
    processing_info: Type.Optional(Type.Object({ state: Type.String({ enum: ['pending', 'in_progress', 'failed', 'succeeded'] }), progress_percent: Type.Optional(Type.Integer()) })),
  },
  { additionalProperties: true },
);
const uploadResponse = { 200: Type.Object({ data: uploadData }), default: defaultErrorResponse };
const appendData = Type.Object({ expires_at: Type.Integer({ description: 'Unix epoch seconds when the upload session expires.' }) });
/** POST /2/media/upload answers each command: APPEND with the session's expiry, the others with the media. */
const commandResponse = { 200: Type.Object({ data: Type.Union([uploadData, appendData]) }), default: defaultErrorResponse };

const commonFields = {
  media_category: Type.Optional(Type.String({ enum: MEDIA_CATEGORY_VALUES, description: 'What the media is for; tweet_* names are accepted for post_*. Inferred from the file when absent.' })),
  additional_owners: Type.Optional(Type.Union([Type.String({ description: 'Comma-separated user ids.' }), Type.Array(Type.String({ pattern: idPattern }), { maxItems: 100 })])),
};
const commandFields = {
  command: Type.Optional(Type.String({ enum: ['INIT', 'APPEND', 'FINALIZE'], description: 'Chunked upload step; absent for a simple upload.' })),
  media_id: Type.Optional(Type.String({ pattern: idPattern, description: 'APPEND and FINALIZE: the id INIT returned.' })),
  segment_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, description: 'APPEND: the index of this segment.' })),
  total_bytes: Type.Optional(Type.Integer({ minimum: 1, description: 'INIT: the size of the whole file in bytes.' })),
  media_type: Type.Optional(Type.String({ enum: MEDIA_TYPE_VALUES, description: 'INIT: the MIME type of the file.' })),
  ...commonFields,
};
const base64 = (what: string) => Type.Optional(Type.String({ description: `${what}, base64-encoded.` }));
const jsonUpload = Type.Object({ ...commandFields, media: base64('The file (or APPEND segment)'), media_data: base64('The file (or APPEND segment)') }, { additionalProperties: false });
const multipartUpload = Type.Object(
  { ...commandFields, media: Type.Optional(Type.Unknown({ description: 'The file (or APPEND segment), as raw bytes.' })), media_data: base64('The file (or APPEND segment)') },
  { additionalProperties: false },
);
const uploadBody = {
  content: {
    'application/json': { schema: jsonUpload },
    'application/x-www-form-urlencoded': { schema: jsonUpload },
    'multipart/form-data': { schema: multipartUpload },
  },
};

function baseUrlOf(request: FastifyRequest): string {
  return new URL(requestUrl(request)).origin;
}

/**
 * The file of a request, raw (multipart `media`) or base64 (`media` or `media_data` in JSON,
 * form or multipart fields), named by the parameter that carried it for error messages.
 */
function fileOf(body: Record<string, unknown>): { bytes?: Buffer; parameter: string } {
  for (const parameter of ['media', 'media_data']) {
    const value = body[parameter];
    if (value === undefined) continue;
    if (Buffer.isBuffer(value)) return { bytes: value, parameter };
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/.test(value)) {
      throw invalidParameter(parameter, [], `The \`${parameter}\` field is not base64-encoded data`);
    }
    return { bytes: Buffer.from(value, 'base64'), parameter };
  }
  return { parameter: 'media' };
}

function listOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String);
  return String(value).split(',').map((s) => s.trim()).filter(Boolean);
}

/** One set of upload parameters from the query (the older v2 form) and the body (which wins). */
function uploadParams(request: FastifyRequest, pathMediaId?: string): UploadParams {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const all = { ...query, ...body };
  const file = fileOf(body);
  const int = (v: unknown) => (v === undefined ? undefined : Number(v));
  return {
    command: all.command as UploadParams['command'],
    mediaId: pathMediaId ?? (all.media_id as string | undefined),
    segmentIndex: int(all.segment_index),
    totalBytes: int(all.total_bytes),
    mediaType: all.media_type as string | undefined,
    category: all.media_category as string | undefined,
    additionalOwners: listOf(all.additional_owners),
    bytes: file.bytes,
    parameter: file.parameter,
  };
}

const MULTIPART_BOUNDARY = /;\s*boundary=("[^"]+"|[^\s;]+)/i;

function badMultipartType(): ProblemError {
  return invalidParameter('Content-Type', [], 'The `Content-Type` header must name the multipart boundary: multipart/form-data; boundary=...');
}

const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_ERR_CTP_BODY_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

/**
 * Multipart bodies on the routes of `scope` (fields and the file on the body), with the platform's
 * refusals: a multipart body without a boundary, or one busboy cannot read, is bad input naming
 * Content-Type; a file over `limits` is bad input naming `media`, not a bare 413.
 */
export async function acceptMultipart(scope: FastifyInstance, limits: { fileSize: number; fieldSize?: number; files: number; fields: number }): Promise<void> {
  await scope.register(multipart, { attachFieldsToBody: 'keyValues', limits });
  scope.setErrorHandler((error: { code?: string; message?: string; statusCode?: number }, _request, _reply) => {
    if (error.code && TOO_LARGE.has(error.code)) {
      throw invalidParameter('media', [], `The \`media\` file is larger than one request may carry (${limits.fileSize} bytes); upload it in chunks`);
    }
    // busboy refuses a multipart header it cannot use (no boundary, a bad one) by throwing a
    // bare Error from its constructor: that is bad input, not a failure of ours.
    if (error.statusCode === undefined && error.message?.startsWith('Multipart:')) throw badMultipartType();
    throw error;
  });
  // A multipart body without a boundary cannot be read: refused before busboy sees it.
  scope.addHook('preParsing', async (request) => {
    const type = String(request.headers['content-type'] ?? '');
    if (/^multipart\/form-data\b/i.test(type) && !MULTIPART_BOUNDARY.test(type)) throw badMultipartType();
  });
}

/**
 * Media upload (shared/reference S167 /2/media/upload, its older command form, and the
 * initialize/append/finalize paths) and the uploaded bytes, served at /media/<media_key>.<ext>.
 */
export async function mediaRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  registerPlatformServer(ctx, app.server);

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    await acceptMultipart(scope, { fileSize: MAX_REQUEST_FILE, fieldSize: MAX_REQUEST_BODY, files: 1, fields: 20 });

    scope.post(
      '/2/media/upload',
      {
        bodyLimit: MAX_REQUEST_BODY,
        config: { auth: mediaAuth },
        schema: {
          operationId: 'mediaUpload',
          summary: 'Upload media: a whole file, or one step (INIT, APPEND, FINALIZE) of a chunked upload',
          tags: ['Media'],
          querystring: Type.Object(commandFields, { additionalProperties: false }),
          body: uploadBody,
          response: commandResponse,
        },
      },
      async (request) => ({ data: await mediaUpload(ctx, userCallerOf(ctx, request), uploadParams(request), baseUrlOf(request)) }),
    );

    scope.post(
      '/2/media/upload/:id/append',
      {
        bodyLimit: MAX_REQUEST_BODY,
        config: { auth: mediaAuth },
        schema: {
          operationId: 'appendMediaUpload',
          summary: 'Chunked upload: add one segment',
          tags: ['Media'],
          params: Type.Object({ id: Type.String({ pattern: idPattern }) }),
          body: {
            content: {
              'application/json': { schema: Type.Object({ segment_index: Type.Integer({ minimum: 0, maximum: 999 }), media: base64('The segment'), media_data: base64('The segment') }, { additionalProperties: false }) },
              'multipart/form-data': { schema: Type.Object({ segment_index: Type.Integer({ minimum: 0, maximum: 999 }), media: Type.Optional(Type.Unknown({ description: 'The segment, as raw bytes.' })), media_data: base64('The segment') }, { additionalProperties: false }) },
            },
          },
          response: { 200: Type.Object({ data: appendData }), default: defaultErrorResponse },
        },
      },
      async (request) => ({
        data: await mediaUpload(ctx, userCallerOf(ctx, request), { ...uploadParams(request, request.params.id), command: 'APPEND' }, baseUrlOf(request)),
      }),
    );
  });

  app.post(
    '/2/media/upload/initialize',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'initializeMediaUpload',
        summary: 'Chunked upload: declare the size and type of a file',
        tags: ['Media'],
        body: Type.Object(
          {
            total_bytes: Type.Integer({ minimum: 1 }),
            media_type: Type.String({ enum: MEDIA_TYPE_VALUES }),
            ...commonFields,
            shared: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; Plaza shares media through additional_owners.' })),
          },
          { additionalProperties: false },
        ),
        response: uploadResponse,
      },
    },
    async (request) => ({
      data: await mediaUpload(ctx, userCallerOf(ctx, request), { ...uploadParams(request), command: 'INIT' }, baseUrlOf(request)),
    }),
  );

  app.post(
    '/2/media/upload/:id/finalize',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'finalizeMediaUpload',
        summary: 'Chunked upload: join the segments and store the media',
        tags: ['Media'],
        params: Type.Object({ id: Type.String({ pattern: idPattern }) }),
        response: uploadResponse,
      },
    },
    async (request) => ({
      data: await mediaUpload(ctx, userCallerOf(ctx, request), { ...uploadParams(request, request.params.id), command: 'FINALIZE' }, baseUrlOf(request)),
    }),
  );

  app.get(
    '/2/media/upload',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'getMediaUploadStatus',
        summary: 'The processing state of an upload',
        tags: ['Media'],
        querystring: Type.Object({ media_id: Type.String({ pattern: idPattern }), command: Type.Optional(Type.String({ enum: ['STATUS'] })) }, { additionalProperties: false }),
        response: uploadResponse,
      },
    },
    async (request) => ({ data: await uploadStatus(ctx, userCallerOf(ctx, request), request.query.media_id) }),
  );

  app.get(
    '/2/media',
    {
      config: { auth: userOrAppAuth('post.read') },
      schema: {
        operationId: 'getMediaByMediaKeys',
        summary: 'Look up media by media keys',
        tags: ['Media'],
        querystring: query({ media_keys: mediaKeysParam, 'media.fields': fieldsParamOf(mediaDeclaration) }),
        response: { 200: lookupResponse(MediaSchema, true), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const keys = parseMediaKeys(request.query.media_keys);
      const fields = parseFieldSelection(mediaDeclaration, request.query);
      return lookupBody(await lookupMedia(ctx, viewOf(ctx.clock, callerOf(request)), keys, 'media_keys', fields), false);
    },
  );

  app.get(
    '/2/media/:media_key',
    {
      config: { auth: userOrAppAuth('post.read') },
      schema: {
        operationId: 'getMediaByMediaKey',
        summary: 'Look up one media by media key',
        tags: ['Media'],
        params: Type.Object({ media_key: Type.String({ pattern: MEDIA_KEY_TEXT }) }),
        querystring: query({ 'media.fields': fieldsParamOf(mediaDeclaration) }),
        response: { 200: lookupResponse(MediaSchema, false), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const fields = parseFieldSelection(mediaDeclaration, request.query);
      return lookupBody(await lookupMedia(ctx, viewOf(ctx.clock, callerOf(request)), [request.params.media_key], 'media_key', fields), true);
    },
  );

  app.post(
    '/2/media/metadata',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'createMediaMetadata',
        summary: 'Set the alt text and other metadata of media you uploaded',
        tags: ['Media'],
        body: Type.Object({ id: Type.String({ pattern: idPattern, description: 'The media id.' }), metadata: Type.Optional(metadataBody) }, { additionalProperties: false }),
        response: { 200: writeResponse({ id: Type.String(), associated_metadata: Type.Object({}, { additionalProperties: true }) }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await createMediaMetadata(ctx, userCallerOf(ctx, request), request.body.id, request.body.metadata) }),
  );

  const subtitleCategory = Type.String({ enum: SUBTITLE_TARGET_CATEGORIES, description: 'The media category of the video: PostVideo (TweetVideo) or AmplifyVideo.' });
  const videoId = Type.String({ pattern: idPattern, description: 'The media id of the video the subtitles belong to.' });
  const subtitleTrack = Type.Object({ display_name: Type.String(), id: Type.String(), language_code: Type.String() });

  app.post(
    '/2/media/subtitles',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'createMediaSubtitles',
        summary: 'Give a video you uploaded a subtitle track (an SRT file uploaded with media_category=subtitles) in one language',
        tags: ['Media'],
        body: Type.Object(
          {
            id: videoId,
            media_category: Type.Optional(subtitleCategory),
            subtitles: Type.Object(
              {
                // Checked by the service, whose refusals name the nested field (subtitles.id) rather than `subtitles`.
                display_name: Type.Optional(Type.String({ description: `The language as people read it, e.g. English (at most ${DISPLAY_NAME_MAX} characters); the language code when absent.` })),
                id: Type.String({ description: 'The media id of the subtitle file (^[0-9]{1,19}$).' }),
                language_code: Type.String({ description: `Two capital letters (BCP47 language, ${LANGUAGE_CODE_TEXT}), e.g. EN. A track in a language the video has replaces it.` }),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: writeResponse({ id: Type.String(), media_category: Type.String(), associated_subtitles: Type.Object({ subtitles: Type.Array(subtitleTrack) }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => ({ data: await createMediaSubtitles(ctx, userCallerOf(ctx, request), request.body) }),
  );

  app.delete(
    '/2/media/subtitles',
    {
      config: { auth: mediaAuth },
      schema: {
        operationId: 'deleteMediaSubtitles',
        summary: 'Remove the subtitle track of a video you uploaded in one language',
        tags: ['Media'],
        body: Type.Object(
          { id: videoId, media_category: subtitleCategory, language_code: Type.String({ description: 'The language of the track, e.g. EN.' }) },
          { additionalProperties: false },
        ),
        response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await deleteMediaSubtitles(ctx, userCallerOf(ctx, request), request.body) }),
  );

  app.get(
    '/2/media/analytics',
    {
      config: { auth: userAuth('post.read') },
      schema: {
        operationId: 'getMediaAnalytics',
        summary: 'View and playback counts of your media over a window',
        tags: ['Media'],
        querystring: query({
          media_keys: mediaKeysParam,
          start_time: Type.String({ description: 'Start of the window (RFC 3339).' }),
          end_time: Type.String({ description: 'End of the window, exclusive (RFC 3339); at most 90 days after start_time.' }),
          granularity: Type.Optional(Type.String({ enum: ['hourly', 'daily', 'total'], default: 'daily', description: 'Buckets of timestamped_metrics (UTC hours or days, or one for the window).' })),
          'media_analytics.fields': listParam(MEDIA_ANALYTICS_FIELDS, 'A comma separated list of MediaAnalytics fields to display.'),
        }),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(Type.Object({ media_key: Type.String() }, { additionalProperties: true }))), errors: Type.Optional(Type.Array(Type.Ref(ProblemSchema))) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const keys = parseMediaKeys(q.media_keys);
      const { start, end } = analyticsWindow(q.start_time, q.end_time);
      const fields = parseSelectionText('media_analytics.fields', q['media_analytics.fields'], MEDIA_ANALYTICS_FIELDS);
      const result = await mediaAnalytics(ctx, userCallerOf(ctx, request), { keys, start, end, granularity: (q.granularity ?? 'daily') as Granularity, fields });
      return { data: result.data.length > 0 ? result.data : undefined, errors: result.errors.length > 0 ? result.errors : undefined };
    },
  );

  // The bytes behind media.url and variants (the public platform serves them from its media host, without credentials).
  app.get(
    '/media/:file',
    { schema: { hide: true, params: Type.Object({ file: Type.String({ pattern: '^(w[0-9a-z]{10}~)?[0-9]+_[0-9]+\\.[a-z0-9]+$' }) }) } },
    async (request, reply) => {
      // A world's files carry its id (mediaFileUrl), which src/worlds/routing.ts has entered.
      const [key] = request.params.file.replace(/^w[0-9a-z]{10}~/, '').split('.');
      const [media] = await findMediaByKeys(ctx.store.db, [key]);
      const wanted = `/media/${request.params.file}`;
      // A video's poster frame (preview_image_url) is a file of its own beside the video.
      const poster = media?.type === 'video' && media.file_path && media.preview_image_url?.endsWith(wanted) ? locationBeside(media.file_path, `${key}.png`) : undefined;
      const location = poster ?? (media?.url?.endsWith(wanted) ? media.file_path : undefined);
      const file = location ? await ctx.media.open(location) : undefined;
      if (!media || !file) {
        throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `No media file ${request.params.file}.`));
      }
      if (request.method === 'GET' && !poster) await recordPlayback(ctx, media);
      return reply
        .type(poster ? 'image/png' : media.mime_type)
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.stream());
    },
  );
}
