import { Type, type TSchema } from '@sinclair/typebox';
import { AdsError } from '../http/errors.js';
import { count, cursor, flag, sortBy, standardList } from '../http/list.js';
import { Param, idList, int, listItems, oneOfList, scalar, text } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { MAX_CARD_NAME } from './components.js';
import {
  ALL_CARD_TYPES,
  CARD_SORTING,
  MAX_CHOICE,
  MAX_CTA,
  MAX_THANK_YOU,
  MAX_VC_TITLE,
  POLL_DURATION,
  anyCardWire,
  createCard,
  createPollCard,
  createVideoConversationCard,
  deleteCard,
  getCard,
  listCards,
  listCardsOfKind,
  mediaOfCards,
} from './service.js';
import type { CardKind, CardRow } from './store.js';
import { AnyCardSchema, ComponentCardSchema, PollCardSchema, VideoConversationCardSchema } from './wire.js';

/** A call-to-action hashtag: `#` and at most 20 characters after it (spec 001 "Video conversation cards"). */
function cta(): Param<string> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    const tag = value.replace(/^#/, '');
    if (!value.startsWith('#') || !/^[\p{L}\p{N}_]+$/u.test(tag)) throw AdsError.invalidParameter(name, `Expected a hashtag such as #Plaza for ${name}, got ${JSON.stringify(value.slice(0, 100))}`);
    if ([...tag].length > MAX_CTA) throw AdsError.invalidParameter(name, `${name} must be at most ${MAX_CTA} characters not counting #, got ${[...tag].length}`);
    return value;
  });
}

/** card_uris: up to 200 values, each echoed as given. */
function cardUris(): Param<string[]> {
  return new Param((raw, name) => {
    const items = [...new Set(listItems(raw, name))];
    if (items.length === 0) throw AdsError.invalidParameter(name, `Expected at least one card URI for ${name}`);
    if (items.length > 200) throw AdsError.invalidParameter(name, `Expected at most 200 card URIs for ${name}, got ${items.length}`);
    return items;
  });
}

export function cardRoutes(ads: AdsRoutes): void {
  const base = '/accounts/:account_id/cards';
  const sortable = Object.keys(CARD_SORTING.fields);
  const wireOf = async (db: Parameters<typeof mediaOfCards>[0], row: CardRow) => anyCardWire(row, await mediaOfCards(db, [row]));

  ads.route({
    method: 'GET',
    url: base,
    rate: 'entity-read',
    params: {
      card_types: oneOfList(ALL_CARD_TYPES),
      card_id: idList(),
      card_uris: cardUris(),
      count: count({ max: 200, default: 100 }),
      cursor: cursor(),
      include_legacy_cards: flag(),
      q: text({ max: MAX_CARD_NAME }),
      sort_by: sortBy(sortable),
      with_deleted: flag(),
    },
    response: Type.Array(AnyCardSchema),
    handler: async (call) => {
      const result = await listCards(call.db, call.account, call.params);
      return page(result, (row) => anyCardWire(row, result.media));
    },
  });

  ads.route({
    method: 'GET',
    url: `${base}/:card_id`,
    rate: 'entity-read',
    params: { with_deleted: flag() },
    response: ComponentCardSchema,
    handler: async (call) => one(await wireOf(call.db, await getCard(call.db, call.account, pathId(call, 'card_id'), 'card', call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: base,
    rate: 'write',
    params: {},
    response: ComponentCardSchema,
    handler: async (call) => {
      if (!/^application\/json\s*(;|$)/i.test(call.contentType)) {
        throw AdsError.invalidParameter('Content-Type', `POST cards takes a JSON body only: send Content-Type: application/json, got ${JSON.stringify(call.contentType || 'no body')}`);
      }
      const body = call.body as Record<string, unknown> | undefined;
      if (body && typeof body === 'object' && !Array.isArray(body)) for (const [k, v] of Object.entries(body)) call.echo(k, v);
      return one(await wireOf(call.db, await createCard(call.actor, call.db, call.account, body)));
    },
  });

  const schemaOf: Record<CardKind, TSchema> = { card: ComponentCardSchema, poll: PollCardSchema, video_conversation: VideoConversationCardSchema };
  // The spec's path for deleting a card, the public platform's, and one per legacy kind.
  for (const [url, kind] of [
    [`${base}/image_conversation/:card_id`, undefined],
    [`${base}/:card_id`, 'card'],
    [`${base}/poll/:card_id`, 'poll'],
    [`${base}/video_conversation/:card_id`, 'video_conversation'],
  ] as Array<[string, CardKind | undefined]>) {
    ads.route({
      method: 'DELETE',
      url,
      rate: 'write',
      params: {},
      response: kind ? schemaOf[kind] : AnyCardSchema,
      handler: async (call) => one(await wireOf(call.db, await deleteCard(call.actor, call.db, call.account, pathId(call, 'card_id'), kind))),
    });
  }

  for (const kind of ['poll', 'video_conversation'] as const) {
    ads.route({
      method: 'GET',
      url: `${base}/${kind}`,
      rate: 'entity-read',
      params: { card_ids: idList(), q: text({ max: MAX_CARD_NAME }), ...standardList(sortable) },
      response: Type.Array(schemaOf[kind]),
      handler: async (call) => {
        const result = await listCardsOfKind(call.db, call.account, kind, call.params);
        const media = await mediaOfCards(call.db, result.rows);
        return page(result, (row) => anyCardWire(row, media));
      },
    });
    ads.route({
      method: 'GET',
      url: `${base}/${kind}/:card_id`,
      rate: 'entity-read',
      params: { with_deleted: flag() },
      response: schemaOf[kind],
      handler: async (call) => one(await wireOf(call.db, await getCard(call.db, call.account, pathId(call, 'card_id'), kind, call.params.with_deleted))),
    });
  }

  const name = () => text({ max: MAX_CARD_NAME }).required();
  const choice = () => text({ max: MAX_CHOICE });
  ads.route({
    method: 'POST',
    url: `${base}/poll`,
    rate: 'write',
    params: {
      name: name(),
      duration_in_minutes: int({ min: POLL_DURATION.min, max: POLL_DURATION.max }).required(),
      first_choice: choice().required(),
      second_choice: choice().required(),
      third_choice: choice(),
      fourth_choice: choice(),
      media_key: text({ max: 40 }),
    },
    response: PollCardSchema,
    handler: async (call) => one(await wireOf(call.db, await createPollCard(call.actor, call.db, call.account, call.params))),
  });

  const ctaPost = () => text({ max: 280 });
  ads.route({
    method: 'POST',
    url: `${base}/video_conversation`,
    rate: 'write',
    params: {
      name: name(),
      first_cta: cta().required(),
      first_cta_post: ctaPost().required(),
      second_cta: cta(),
      second_cta_post: ctaPost(),
      third_cta: cta(),
      third_cta_post: ctaPost(),
      fourth_cta: cta(),
      fourth_cta_post: ctaPost(),
      thank_you_text: text({ max: MAX_THANK_YOU }).required(),
      title: text({ max: MAX_VC_TITLE }),
      media_key: text({ max: 40 }).required(),
      poster_media_key: text({ max: 40 }),
    },
    response: VideoConversationCardSchema,
    handler: async (call) => one(await wireOf(call.db, await createVideoConversationCard(call.actor, call.db, call.account, call.params))),
  });
}
