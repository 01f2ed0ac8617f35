import type { DbOrTx } from '../../store/store.js';
import type { AccountRow } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { requireLibraryMedia } from '../media-library/service.js';
import { isWebUrl } from './url.js';

/**
 * The components of a card (spec 001 "Cards"): a card needs one media component (MEDIA, or
 * SWIPEABLE_MEDIA with 2 to 6 media) and a DETAILS or a BUTTON component, in render order.
 * Labels are for BUTTON only; WEBSITE destinations (url required) for DETAILS only, APP
 * destinations for BUTTON only. `slides` make a multi-destination carousel: each slide a full
 * card. card_type follows from the media and the destination.
 */
export const LABEL_VALUES = ['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP'] as const;
export const CARD_TYPES = [
  'IMAGE_APP',
  'IMAGE_CAROUSEL_APP',
  'IMAGE_CAROUSEL_WEBSITE',
  'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE',
  'IMAGE_WEBSITE',
  'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE',
  'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP',
  'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE',
  'VIDEO_APP',
  'VIDEO_CAROUSEL_APP',
  'VIDEO_CAROUSEL_WEBSITE',
  'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE',
  'VIDEO_WEBSITE',
] as const;
export const MAX_CARD_NAME = 80;
const MAX_TITLE = 70;
const CAROUSEL = { min: 2, max: 6 };
const APP_FIELDS = ['type', 'country_code', 'android_store_app_id', 'android_store_deep_link', 'ios_app_store_identifier', 'ios_deep_link'];

type Json = Record<string, unknown>;
const bad = (parameter: string, message: string) => AdsError.invalidParameter(parameter, message);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = 2048): v is string => typeof v === 'string' && v.trim().length > 0 && [...v].length <= max && !v.includes('\u0000');

function destination(value: unknown, at: string, kind: 'WEBSITE' | 'APP'): Json {
  if (!isObject(value)) throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${at} is missing: an object with a type`, parameter: at }]);
  const type = value.type;
  if (type !== 'WEBSITE' && type !== 'APP') throw bad(`${at}.type`, `Expected a value in WEBSITE, APP, got ${JSON.stringify(type)} for ${at}.type`);
  if (type !== kind) {
    throw bad(`${at}.type`, kind === 'WEBSITE' ? `APP destinations are only for BUTTON components; a DETAILS component takes a WEBSITE destination` : `WEBSITE destinations are only for DETAILS components; a BUTTON component takes an APP destination`);
  }
  if (type === 'WEBSITE') {
    const extra = Object.keys(value).find((k) => k !== 'type' && k !== 'url');
    if (extra) throw bad(`${at}.${extra}`, `A WEBSITE destination has only type and url, got ${extra}`);
    if (value.url === undefined) throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${at}.url is missing: a WEBSITE destination needs a url`, parameter: `${at}.url` }]);
    if (typeof value.url !== 'string' || !isWebUrl(value.url)) throw bad(`${at}.url`, `Expected an absolute http or https URL for ${at}.url`);
    return { type, url: value.url };
  }
  const extra = Object.keys(value).find((k) => !APP_FIELDS.includes(k));
  if (extra) throw bad(`${at}.${extra}`, `An APP destination takes ${APP_FIELDS.slice(1).join(', ')}; got ${extra}`);
  for (const k of APP_FIELDS.slice(1)) if (value[k] !== undefined && !isText(value[k], 512)) throw bad(`${at}.${k}`, `${at}.${k} must be a non-empty string`);
  if (value.country_code !== undefined && !/^[A-Za-z]{2}$/.test(String(value.country_code))) throw bad(`${at}.country_code`, `Expected a two-letter ISO country code for ${at}.country_code`);
  if (value.android_store_app_id === undefined && value.ios_app_store_identifier === undefined) {
    throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${at} needs android_store_app_id or ios_app_store_identifier`, parameter: `${at}.android_store_app_id` }]);
  }
  return Object.fromEntries(APP_FIELDS.filter((k) => value[k] !== undefined).map((k) => [k, k === 'country_code' ? String(value[k]).toUpperCase() : value[k]]));
}

type MediaKind = 'IMAGE' | 'VIDEO' | 'MIXED';

interface CheckedCard {
  components: Json[];
  media: MediaKind;
  carousel: boolean;
  destination: 'WEBSITE' | 'APP';
}

async function mediaKindOf(db: DbOrTx, account: AccountRow, keys: string[], at: string): Promise<MediaKind> {
  const kinds = new Set<string>();
  for (const key of keys) kinds.add((await requireLibraryMedia(db, account, key, at, ['IMAGE', 'VIDEO'])).entry.media_type);
  return kinds.size > 1 ? 'MIXED' : (([...kinds][0] ?? 'IMAGE') as MediaKind);
}

async function checkCard(db: DbOrTx, account: AccountRow, components: unknown, at: string, slide: boolean): Promise<CheckedCard> {
  if (!Array.isArray(components) || components.length === 0) throw bad(at, `${at} must be a non-empty array of components`);
  const out: Json[] = [];
  let media: { kind: MediaKind; carousel: boolean } | undefined;
  let dest: 'WEBSITE' | 'APP' | undefined;
  for (const [i, c] of components.entries()) {
    const here = `${at}[${i}]`;
    if (!isObject(c)) throw bad(here, `${here} must be an object with a type`);
    if (c.type === undefined) throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${here}.type is missing`, parameter: `${here}.type` }]);
    const allowed: Record<string, string[]> = { MEDIA: ['type', 'media_key'], SWIPEABLE_MEDIA: ['type', 'media_keys'], DETAILS: ['type', 'title', 'destination'], BUTTON: ['type', 'label', 'destination'] };
    const fields = allowed[String(c.type)];
    if (!fields) throw bad(`${here}.type`, `Expected a value in MEDIA, SWIPEABLE_MEDIA, DETAILS, BUTTON, got ${JSON.stringify(c.type)} for ${here}.type`);
    const extra = Object.keys(c).find((k) => !fields.includes(k));
    if (extra === 'label') throw bad(`${here}.label`, 'A label applies only to BUTTON components');
    if (extra) throw bad(`${here}.${extra}`, `A ${String(c.type)} component takes ${fields.slice(1).join(' and ')}; got ${extra}`);
    const missing = fields.find((k) => c[k] === undefined);
    if (missing) throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${here}.${missing} is missing: a ${String(c.type)} component needs ${fields.slice(1).join(' and ')}`, parameter: `${here}.${missing}` }]);
    if (c.type === 'MEDIA' || c.type === 'SWIPEABLE_MEDIA') {
      if (media) throw bad(here, 'A card holds one media component');
      if (c.type === 'MEDIA') {
        if (!isText(c.media_key, 40)) throw bad(`${here}.media_key`, `${here}.media_key must be a media key of the media library`);
        media = { kind: await mediaKindOf(db, account, [c.media_key], `${here}.media_key`), carousel: false };
        out.push({ type: c.type, media_key: c.media_key });
      } else {
        if (slide) throw bad(here, 'Each slide of a multi-destination carousel holds one MEDIA component, not SWIPEABLE_MEDIA');
        const keys = c.media_keys;
        if (!Array.isArray(keys) || keys.some((k) => !isText(k, 40))) throw bad(`${here}.media_keys`, `${here}.media_keys must be an array of media keys`);
        if (keys.length < CAROUSEL.min || keys.length > CAROUSEL.max) throw bad(`${here}.media_keys`, `${here}.media_keys must hold ${CAROUSEL.min} to ${CAROUSEL.max} media keys, got ${keys.length}`);
        if (new Set(keys).size !== keys.length) throw bad(`${here}.media_keys`, `${here}.media_keys names a media twice`);
        media = { kind: await mediaKindOf(db, account, keys as string[], `${here}.media_keys`), carousel: true };
        out.push({ type: c.type, media_keys: keys });
      }
    } else {
      if (dest) throw bad(here, 'A card holds either a DETAILS or a BUTTON component, once');
      if (c.type === 'DETAILS') {
        if (!isText(c.title, MAX_TITLE)) throw bad(`${here}.title`, `${here}.title must be a non-empty string of at most ${MAX_TITLE} characters`);
        out.push({ type: c.type, title: c.title, destination: destination(c.destination, `${here}.destination`, 'WEBSITE') });
        dest = 'WEBSITE';
      } else {
        const label = c.label;
        if (!isObject(label) || label.type !== 'ENUM' || !(LABEL_VALUES as readonly unknown[]).includes(label.value) || Object.keys(label).length !== 2) {
          throw bad(`${here}.label`, `${here}.label must be {type: ENUM, value: one of ${LABEL_VALUES.join(', ')}}`);
        }
        out.push({ type: c.type, label: { type: 'ENUM', value: label.value }, destination: destination(c.destination, `${here}.destination`, 'APP') });
        dest = 'APP';
      }
    }
  }
  if (!media) throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${at} needs one media component (MEDIA or SWIPEABLE_MEDIA)`, parameter: at }]);
  if (!dest) throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${at} needs a DETAILS or a BUTTON component`, parameter: at }]);
  return { components: out, media: media.kind, carousel: media.carousel, destination: dest };
}

export interface CardDefinition {
  content: { components: Json[] } | { slides: Json[][] };
  card_type: (typeof CARD_TYPES)[number];
}

/** Checks `components` or `slides` (never both) against the account's media library; derives card_type. */
export async function defineCard(db: DbOrTx, account: AccountRow, body: { components?: unknown; slides?: unknown }): Promise<CardDefinition> {
  if (body.components !== undefined && body.slides !== undefined) throw AdsError.exclusiveParameters('components', 'slides');
  if (body.components === undefined && body.slides === undefined) {
    throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: 'components or slides is missing: a card needs one of them', parameter: 'components' }]);
  }
  if (body.components !== undefined) {
    const card = await checkCard(db, account, body.components, 'components', false);
    const prefix = card.carousel ? (card.media === 'MIXED' ? 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL' : `${card.media}_CAROUSEL`) : card.media;
    return { content: { components: card.components }, card_type: `${prefix}_${card.destination}` as CardDefinition['card_type'] };
  }
  const slides = body.slides;
  if (!Array.isArray(slides) || slides.length < CAROUSEL.min || slides.length > CAROUSEL.max) {
    throw bad('slides', `slides must be an array of ${CAROUSEL.min} to ${CAROUSEL.max} slides, each an array of components`);
  }
  const checked: CheckedCard[] = [];
  for (const [i, slide] of slides.entries()) {
    const card = await checkCard(db, account, slide, `slides[${i}]`, true);
    if (card.destination !== 'WEBSITE') throw bad(`slides[${i}]`, 'Multi-destination carousels have WEBSITE destinations: each slide holds a DETAILS component');
    checked.push(card);
  }
  const kinds = new Set(checked.map((c) => c.media));
  const prefix = kinds.size > 1 ? 'MIXED_MEDIA' : [...kinds][0];
  return { content: { slides: checked.map((c) => c.components) }, card_type: `${prefix}_MULTI_DEST_CAROUSEL_WEBSITE` as CardDefinition['card_type'] };
}
