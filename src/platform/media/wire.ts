import type { ResourceDeclaration } from '../../http/fields.js';
import { fromJson } from '../../store/store.js';
import type { MediaTable } from '../../store/schema.js';
import type { View } from '../view.js';

export type MediaRow = MediaTable;

/** The media object: defaults media_key and type (spec 000: at least these in includes.media). */
export const mediaDeclaration: ResourceDeclaration<MediaRow, View> = {
  resource: 'media',
  fieldsParam: 'media.fields',
  defaults: ['media_key', 'type'],
  fields: {
    media_key: (m) => m.media_key,
    type: (m) => m.type,
    alt_text: (m) => m.alt_text ?? undefined,
    duration_ms: (m) => m.duration_ms ?? undefined,
    height: (m) => m.height ?? undefined,
    preview_image_url: (m) => m.preview_image_url ?? undefined,
    public_metrics: (m) => (m.type === 'photo' ? undefined : { view_count: m.view_count }),
    url: (m) => m.url ?? undefined,
    variants: (m) => {
      const variants = fromJson<unknown[]>(m.variants) ?? [];
      return variants.length > 0 ? variants : undefined;
    },
    width: (m) => m.width ?? undefined,
  },
  viewKeys: {},
};
