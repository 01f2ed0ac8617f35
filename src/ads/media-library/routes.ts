import { Type } from '@sinclair/typebox';
import { AdsError } from '../http/errors.js';
import { count, cursor } from '../http/list.js';
import { oneOf, text } from '../http/params.js';
import { one, page, type AdsRoutes } from '../http/route.js';
import { LIMITS, MEDIA_TYPES, addToLibrary, deleteFromLibrary, getLibraryEntry, listLibrary, updateLibrary } from './service.js';
import { MediaLibrarySchema, mediaLibraryWire } from './wire.js';

/** A media key as the upload answers it: `<type>_<id>`. Keys of another shape are simply not found. */
const MEDIA_KEY = /^[0-9]{1,3}_[0-9]{1,19}$/;
const mediaKey = () => text({ max: 40 });

export function mediaLibraryRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/media_library';
  const now = () => ads.ctx.clock.now();
  const wire = (e: Parameters<typeof mediaLibraryWire>[0]) => mediaLibraryWire(e, now());
  const fields = (optional: boolean) => {
    const f = (max: number) => (optional ? text({ max }).nullable() : text({ max }));
    return {
      description: f(LIMITS.description),
      file_name: f(LIMITS.file_name),
      name: f(LIMITS.name),
      poster_media_key: optional ? mediaKey().nullable() : mediaKey(),
      title: f(LIMITS.title),
    };
  };
  const keyOf = (call: { path: Record<string, string>; account: { id: string } }) => {
    const key = call.path.media_key;
    if (!MEDIA_KEY.test(key)) throw new AdsError(404, [{ code: 'MEDIA_NOT_FOUND', message: `Media ${key} was not found in the media library of Account ${call.account.id}`, parameter: 'media_key' }]);
    return key;
  };

  ads.route({
    method: 'GET',
    url: base,
    rate: 'entity-read',
    params: { count: count({ max: 50, default: 20 }), cursor: cursor(), media_type: oneOf(MEDIA_TYPES), q: text({ max: 255 }) },
    response: Type.Array(MediaLibrarySchema),
    handler: async (call) => page(await listLibrary(call.db, call.account, call.params), wire),
  });

  ads.route({
    method: 'GET',
    url: `${base}/:media_key`,
    rate: 'entity-read',
    params: {},
    response: MediaLibrarySchema,
    handler: async (call) => one(wire(await getLibraryEntry(call.db, call.account, keyOf(call)))),
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: { media_key: mediaKey().required(), ...fields(false) },
    response: MediaLibrarySchema,
    handler: async (call) => one(wire(await addToLibrary(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'PUT',
    url: `${base}/:media_key`,
    rate: 'write',
    params: fields(true),
    response: MediaLibrarySchema,
    handler: async (call) => one(wire(await updateLibrary(call.actor, call.db, call.account, keyOf(call), call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: `${base}/:media_key`,
    rate: 'write',
    params: {},
    response: MediaLibrarySchema,
    handler: async (call) => one(wire(await deleteFromLibrary(call.actor, call.db, call.account, keyOf(call)))),
  });
}
