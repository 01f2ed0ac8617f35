import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestUrl } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { installV1Errors, sendJson, V1Error, v1Caller } from '../v1/http.js';
import { registerPlatformServer } from './public-url.js';
import { mediaUpload, uploadStatus, type UploadData, type UploadParams } from './service.js';

/**
 * POST /1.1/media/upload.json and its STATUS query, as upload.twitter.com serves them to the
 * SDKs that still call it (issue 15): the same media service as POST /2/media/upload, the v1.1
 * shapes (media_id as a number and media_id_string, APPEND answered 204), OAuth 1.0a user
 * context, and v1.1 `{"errors":[{code,message}]}` bodies for every refusal.
 */

const PATH = '/1.1/media/upload.json';
/** A whole GIF (15 MB) in one request, or a chunk, base64-encoded or not. */
const MAX_REQUEST_BODY = 24 * 1024 * 1024;
const COMMANDS = new Set(['INIT', 'APPEND', 'FINALIZE', 'STATUS']);
/** v1.1 spells media categories in camel case as well (TweetImage); the media service knows the snake-case names. */
const V1_CATEGORIES: Readonly<Record<string, string>> = {
  TweetImage: 'tweet_image', TweetGif: 'tweet_gif', TweetVideo: 'tweet_video', DmImage: 'dm_image', DmGif: 'dm_gif', DmVideo: 'dm_video', AmplifyVideo: 'amplify_video', Subtitles: 'subtitles',
};

/**
 * The v1.1 JSON text of an upload: media_id is written as the 64-bit integer it is (a JavaScript
 * number cannot hold it), media_id_string beside it, then the rest as the service gives it.
 */
function v1Body(data: UploadData): string {
  const { id, processing_info, ...rest } = data;
  const info =
    processing_info === undefined
      ? undefined
      : { ...processing_info, ...(processing_info.state === 'pending' || processing_info.state === 'in_progress' ? { check_after_secs: 1 } : {}) };
  const tail = JSON.stringify({ ...rest, ...(info ? { processing_info: info } : {}) }).slice(1);
  return `{"media_id":${id},"media_id_string":${JSON.stringify(id)}${tail === '}' ? '}' : `,${tail}`}`;
}

function field(request: FastifyRequest, name: string): unknown {
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  return body[name] ?? query[name];
}

function text(request: FastifyRequest, name: string): string | undefined {
  const value = field(request, name);
  if (value === undefined) return undefined;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return String(value);
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(value.trim())) throw new V1Error(400, 44, `${name} parameter is invalid.`);
  return Number(value);
}

/** The file of the request: multipart `media` as bytes, or base64 `media_data` (or `media`). */
function fileOf(request: FastifyRequest): { bytes?: Buffer; parameter: string } {
  for (const parameter of ['media', 'media_data']) {
    const value = field(request, parameter);
    if (value === undefined) continue;
    if (Buffer.isBuffer(value)) return { bytes: value, parameter };
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/.test(value)) throw new V1Error(400, 44, `${parameter} parameter is invalid.`);
    return { bytes: Buffer.from(value, 'base64'), parameter };
  }
  return { parameter: 'media' };
}

function categoryOf(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : (V1_CATEGORIES[raw] ?? raw);
}

const baseUrlOf = (request: FastifyRequest) => new URL(requestUrl(request)).origin;

export function v1MediaUploadRoutes(ctx: PlatformContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    registerPlatformServer(ctx, app.server);
    await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: MAX_REQUEST_BODY, fieldSize: MAX_REQUEST_BODY, files: 1, fields: 20 } });

    installV1Errors(app, `The request is larger than ${MAX_REQUEST_BODY} bytes: upload the file in chunks with INIT, APPEND and FINALIZE.`);

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const who = await v1Caller(ctx, request, reply);
      const command = text(request, 'command');
      if (command !== undefined && !COMMANDS.has(command)) throw new V1Error(400, 44, 'command parameter is invalid.');
      const mediaId = text(request, 'media_id');
      if (command === 'STATUS') {
        if (mediaId === undefined) throw new V1Error(400, 38, 'media_id parameter is missing.');
        if (!/^[0-9]{1,19}$/.test(mediaId)) throw new V1Error(400, 44, 'media_id parameter is invalid.');
        return sendJson(reply, 200, v1Body(await uploadStatus(ctx, who, mediaId)));
      }
      if (request.method === 'GET') throw new V1Error(400, 44, 'command parameter is invalid: GET takes command=STATUS.');
      const file = command === 'INIT' || command === 'FINALIZE' ? { parameter: 'media' } : fileOf(request);
      const owners = text(request, 'additional_owners');
      const params: UploadParams = {
        command: command as UploadParams['command'],
        mediaId,
        segmentIndex: integer('segment_index', text(request, 'segment_index')),
        totalBytes: integer('total_bytes', text(request, 'total_bytes')),
        mediaType: text(request, 'media_type'),
        category: categoryOf(text(request, 'media_category')),
        additionalOwners: owners === undefined ? undefined : owners.split(',').map((s) => s.trim()).filter(Boolean),
        bytes: file.bytes,
        parameter: file.parameter,
      };
      const result = await mediaUpload(ctx, who, params, baseUrlOf(request));
      // APPEND answers 204 with no body on upload.twitter.com.
      if (command === 'APPEND') return reply.code(204).send();
      return sendJson(reply, 200, v1Body(result as UploadData));
    };

    app.post(PATH, { bodyLimit: MAX_REQUEST_BODY, schema: { hide: true } }, handle);
    app.get(PATH, { schema: { hide: true } }, handle);
  };
}
