import { toJson, type DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { newAdsId } from '../ids.js';
import { aspectRatio } from '../media-library/wire.js';
import { requireLibraryMedia } from '../media-library/service.js';
import { CARD_TYPES, MAX_CARD_NAME, defineCard } from './components.js';
import { cardsOf, findCard, insertCard, updateCardRow, type CardKind, type CardRow } from './store.js';
import { cardIdOf, cardWire, componentMediaKeys, pollCardWire, videoConversationCardWire, type CardMedia, type PollContent, type VideoConversationContent } from './wire.js';

/**
 * Cards (spec 001 "Cards"), poll cards (shared/reference/ads.md §3) and video conversation cards
 * (spec 001 "Video conversation cards"): one table, one kind each. The card list returns only
 * cards created through POST cards; include_legacy_cards adds the legacy kinds (polls and video
 * conversations).
 */
export const CARD_SORTING = entitySorting(undefined, { name: { column: 'name' } });
export const LEGACY_CARD_TYPES = ['IMAGE_CONVERSATION', 'VIDEO_CONVERSATION', 'VIDEO_POLLS', 'IMAGE_POLLS', 'TEXT_POLLS'] as const;
export const ALL_CARD_TYPES = [...CARD_TYPES, ...LEGACY_CARD_TYPES];
const LABEL: Record<CardKind, string> = { card: 'Card', poll: 'Poll Card', video_conversation: 'Video Conversation Card' };

const cardNotFound = (id: string, account: AccountRow, kind?: CardKind) =>
  new AdsError(404, [{ code: 'CARD_NOT_FOUND', message: `${kind ? LABEL[kind] : 'Card'} ${id} was not found for Account ${account.id}`, parameter: 'card_id' }]);

/** The media rows behind the media keys of a page of cards. */
export async function mediaOfCards(db: DbOrTx, rows: readonly CardRow[]): Promise<CardMedia> {
  const keys = new Set<string>();
  for (const row of rows) {
    if (row.kind === 'card') {
      for (const key of componentMediaKeys(row)) keys.add(key);
      continue;
    }
    const c = JSON.parse(row.content) as { media_key?: string | null; poster_media_key?: string | null };
    if (c.media_key) keys.add(c.media_key);
    if (c.poster_media_key) keys.add(c.poster_media_key);
  }
  if (keys.size === 0) return new Map();
  const media = await db.selectFrom('media').selectAll().where('media_key', 'in', [...keys]).execute();
  return new Map(media.map((m) => [m.media_key, m]));
}

/** Any kind of card as its own wire object. */
export function anyCardWire(row: CardRow, media: CardMedia) {
  return row.kind === 'poll' ? pollCardWire(row, media) : row.kind === 'video_conversation' ? videoConversationCardWire(row, media) : cardWire(row, media);
}

function checkName(name: unknown): string {
  if (name === undefined) throw AdsError.missingParameter('name');
  if (typeof name !== 'string' || name.trim().length === 0) throw AdsError.invalidParameter('name', 'name must be a non-empty string');
  if (name.includes('\u0000')) throw AdsError.invalidParameter('name', 'name must not contain NUL characters');
  const length = [...name.trim()].length;
  if (length > MAX_CARD_NAME) throw AdsError.invalidParameter('name', `name must be at most ${MAX_CARD_NAME} characters, got ${length}`);
  return name.trim();
}

async function newCard(actor: AdsActor, db: DbOrTx, account: AccountRow, kind: CardKind, name: string, cardType: string, content: unknown): Promise<CardRow> {
  const now = actor.ctx.clock.now().toISOString();
  const row: CardRow = { id: newAdsId(actor.ctx), account_id: account.id, kind, name, card_type: cardType, content: toJson(content), created_at: now, updated_at: now, deleted: 0 };
  await insertCard(db, row);
  return row;
}

/** POST cards: a JSON object {name, components | slides}. */
export async function createCard(actor: AdsActor, db: DbOrTx, account: AccountRow, body: unknown): Promise<CardRow> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AdsError.invalidParameter('body', 'The body must be a JSON object {name, components} or {name, slides}');
  const b = body as Record<string, unknown>;
  const extra = Object.keys(b).find((k) => !['name', 'components', 'slides'].includes(k));
  if (extra) throw AdsError.invalidParameter(extra, `POST cards takes name and components or slides; got ${extra}`);
  const name = checkName(b.name);
  const def = await defineCard(db, account, b);
  return newCard(actor, db, account, 'card', name, def.card_type, def.content);
}

export interface CardListParams extends ListRequest {
  card_types?: string[];
  card_id?: string[];
  card_uris?: string[];
  include_legacy_cards: boolean;
  q?: string;
  with_deleted: boolean;
}

export async function listCards(db: DbOrTx, account: AccountRow, p: CardListParams) {
  let ids = p.card_id;
  if (p.card_uris) {
    const fromUris = p.card_uris.map((uri) => {
      const id = cardIdOf(uri);
      if (!id) throw AdsError.invalidParameter('card_uris', `Expected card URIs of the form card://<card_id>, got ${JSON.stringify(uri)} for card_uris`);
      return id;
    });
    ids = ids ? ids.filter((id) => fromUris.includes(id)) : fromUris;
  }
  const kinds: CardKind[] = p.include_legacy_cards ? ['card', 'poll', 'video_conversation'] : ['card'];
  const page = await runList(db, cardsOf(db, account.id, { kinds, ids, cardTypes: p.card_types, q: p.q, withDeleted: p.with_deleted }), CARD_SORTING, p);
  return { ...page, media: await mediaOfCards(db, page.rows) };
}

export function listCardsOfKind(db: DbOrTx, account: AccountRow, kind: CardKind, p: ListRequest & { card_ids?: string[]; q?: string; with_deleted: boolean }) {
  return runList(db, cardsOf(db, account.id, { kinds: [kind], ids: p.card_ids, q: p.q, withDeleted: p.with_deleted }), CARD_SORTING, p);
}

/** One card of `kind` (any kind when absent); a deleted one only with with_deleted=true. */
export async function getCard(db: DbOrTx, account: AccountRow, id: string | undefined, kind: CardKind | undefined, withDeleted = false): Promise<CardRow> {
  const row = id === undefined ? undefined : await findCard(db, account.id, id);
  if (!row || (kind && row.kind !== kind) || (row.deleted === 1 && !withDeleted)) throw cardNotFound(id ?? '', account, kind);
  return row;
}

/** A live card of the account named by its card_uri (posts attach cards this way). */
export async function cardByUri(db: DbOrTx, account: AccountRow, uri: string, parameter = 'card_uri'): Promise<CardRow> {
  const id = cardIdOf(uri);
  const row = id ? await findCard(db, account.id, id) : undefined;
  if (!row || row.deleted === 1) throw new AdsError(404, [{ code: 'CARD_NOT_FOUND', message: `Card ${uri} was not found for Account ${account.id}`, parameter }]);
  return row;
}

export async function deleteCard(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined, kind?: CardKind): Promise<CardRow> {
  const before = await getCard(db, account, id, kind);
  return updateCardRow(db, before.id, { deleted: 1, updated_at: actor.ctx.clock.now().toISOString() });
}

export const POLL_DURATION = { min: 5, max: 10_080 };
export const MAX_CHOICE = 25;

/** POST cards/poll (shared/reference/ads.md §3): choices in order, end_time = start + duration. */
export async function createPollCard(
  actor: AdsActor,
  db: DbOrTx,
  account: AccountRow,
  p: { name: string; duration_in_minutes: number; first_choice: string; second_choice: string; third_choice?: string; fourth_choice?: string; media_key?: string },
): Promise<CardRow> {
  if (p.fourth_choice !== undefined && p.third_choice === undefined) {
    throw new AdsError(400, [{ code: 'MISSING_PARAMETER', message: 'third_choice is missing: fourth_choice needs the choices before it', parameter: 'third_choice' }]);
  }
  const choices = [p.first_choice, p.second_choice, p.third_choice, p.fourth_choice].filter((c): c is string => c !== undefined);
  const lower = choices.map((c) => c.toLowerCase());
  const repeated = lower.findIndex((c, i) => lower.indexOf(c) !== i);
  if (repeated !== -1) throw AdsError.invalidParameter(['first_choice', 'second_choice', 'third_choice', 'fourth_choice'][repeated], `The choice ${JSON.stringify(choices[repeated])} is given twice`);
  const entry = p.media_key ? await requireLibraryMedia(db, account, p.media_key, 'media_key', ['IMAGE', 'VIDEO']) : undefined;
  const start = actor.ctx.clock.now();
  const content: PollContent = {
    choices,
    duration_in_minutes: p.duration_in_minutes,
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + p.duration_in_minutes * 60_000).toISOString(),
    media_key: p.media_key ?? null,
    poster_media_key: entry?.entry.poster_media_key ?? null,
  };
  const cardType = entry ? (entry.entry.media_type === 'VIDEO' ? 'VIDEO_POLLS' : 'IMAGE_POLLS') : 'TEXT_POLLS';
  return newCard(actor, db, account, 'poll', p.name, cardType, content);
}

export const MAX_CTA = 20;
export const MAX_THANK_YOU = 23;
export const MAX_VC_TITLE = 23;
const SIXTEEN_NINE = '16:9';

export interface VideoConversationInput {
  name: string;
  first_cta: string;
  first_cta_post: string;
  second_cta?: string;
  second_cta_post?: string;
  third_cta?: string;
  third_cta_post?: string;
  fourth_cta?: string;
  fourth_cta_post?: string;
  thank_you_text: string;
  title?: string;
  media_key: string;
  poster_media_key?: string;
}

const missing = (parameter: string, why: string) => new AdsError(400, [{ code: 'MISSING_PARAMETER', message: `${parameter} is missing: ${why}`, parameter }]);

/** POST cards/video_conversation: every CTA rule of spec 001. */
export async function createVideoConversationCard(actor: AdsActor, db: DbOrTx, account: AccountRow, p: VideoConversationInput): Promise<CardRow> {
  if (p.second_cta === undefined && p.title === undefined) throw missing('title', 'title is required when second_cta is not set');
  const ordinals = ['first', 'second', 'third', 'fourth'] as const;
  const ctas: VideoConversationContent['ctas'] = [];
  for (const [i, o] of ordinals.entries()) {
    const cta = p[`${o}_cta`];
    const post = p[`${o}_cta_post`];
    if (cta === undefined && post === undefined) continue;
    if (cta === undefined) throw missing(`${o}_cta`, `${o}_cta_post needs ${o}_cta`);
    if (post === undefined) throw missing(`${o}_cta_post`, `${o}_cta_post is required when ${o}_cta is set`);
    if (i > 0 && ctas.length < i) throw missing(`${ordinals[i - 1]}_cta`, `${o}_cta needs the calls to action before it`);
    ctas.push({ cta, post });
  }
  const video = await requireLibraryMedia(db, account, p.media_key, 'media_key', ['VIDEO']);
  const ratio = aspectRatio(video.media.width, video.media.height);
  if (ratio !== SIXTEEN_NINE) throw AdsError.invalidParameter('media_key', `media_key must be a video with aspect ratio 16:9, got ${ratio ?? 'unknown'} (${video.media.width}x${video.media.height})`);
  const posterKey = p.poster_media_key ?? video.entry.poster_media_key;
  if (p.poster_media_key) await requireLibraryMedia(db, account, p.poster_media_key, 'poster_media_key', ['IMAGE']);
  const content: VideoConversationContent = { ctas, thank_you_text: p.thank_you_text, title: p.title ?? null, media_key: p.media_key, poster_media_key: posterKey ?? null };
  return newCard(actor, db, account, 'video_conversation', p.name, 'VIDEO_CONVERSATION', content);
}

