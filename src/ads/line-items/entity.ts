import { entitySorting, flag, q, standardList } from '../http/list.js';
import { adsId, bool, idList, int, micros, oneOf, oneOfList, platformId, text, time, type Input, type Parsed } from '../http/params.js';
import type { LineItemRow } from './store.js';
import {
  AUDIENCE_EXPANSIONS,
  BID_STRATEGIES,
  DURATIONS_IN_DAYS,
  GOALS_ON_CREATE,
  GOALS_ON_UPDATE,
  LINE_ITEM_STATUSES_ON_CREATE,
  LINE_ITEM_STATUSES_ON_UPDATE,
  OBJECTIVES,
  PAY_BY,
  PLACEMENTS,
  PLACEMENT_ALIASES,
  PRODUCT_TYPES,
  PRODUCT_TYPE_ALIASES,
} from './vocabulary.js';

/**
 * The line item, declared once (spec 001 "Line item"). Its stored row is `AdsLineItemTable`; here
 * are its settings (what a client sends and the rules read), each with its parameter and, where
 * the column holds it encoded, its codec. From these come the POST and PUT parameters (routes.ts),
 * the decoded settings the rules check (`LineItemSettings`, service.ts), the columns written back
 * and the wire object's values (wire.ts).
 */

/** Settings the column holds encoded: a JSON list, or a 0/1 flag. */
const jsonList = { decode: (text: string): string[] => JSON.parse(text) as string[], encode: (value: string[]): string => JSON.stringify(value) };
const zeroOrOne = {
  decode: (n: number | null): boolean | null => (n === null ? null : n === 1),
  encode: (value: boolean | null): number | null => (value === null ? null : value ? 1 : 0),
};
const CODECS = { placements: jsonList, categories: jsonList, standard_delivery: zeroOrOne } as const;
type Codecs = typeof CODECS;

export const SETTING_NAMES = [
  'objective',
  'product_type',
  'placements',
  'start_time',
  'end_time',
  'bid_strategy',
  'bid_amount_local_micro',
  'goal',
  'pay_by',
  'entity_status',
  'frequency_cap',
  'duration_in_days',
  'audience_expansion',
  'advertiser_domain',
  'categories',
  'android_app_store_identifier',
  'ios_app_store_identifier',
  'primary_web_event_tag',
  'standard_delivery',
  'daily_budget_amount_local_micro',
  'total_budget_amount_local_micro',
  'advertiser_user_id',
  'name',
] as const satisfies readonly (keyof LineItemRow)[];
type SettingName = (typeof SETTING_NAMES)[number];

/** A line item's settings, decoded: the values the rules read and the wire object shows. */
export type LineItemSettings = { [K in SettingName]: K extends keyof Codecs ? ReturnType<Codecs[K]['decode']> : LineItemRow[K] };

const codecOf = (name: string) => (CODECS as Record<string, { decode(v: unknown): unknown; encode(v: unknown): unknown } | undefined>)[name];

export function settingsOf(row: LineItemRow): LineItemSettings {
  const out: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const codec = codecOf(name);
    out[name] = codec ? codec.decode(row[name]) : row[name];
  }
  return out as LineItemSettings;
}

/** The columns that hold the settings. */
export function columnsOf(settings: LineItemSettings): Pick<LineItemRow, SettingName> {
  const out: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const codec = codecOf(name);
    out[name] = codec ? codec.encode(settings[name]) : settings[name];
  }
  return out as Pick<LineItemRow, SettingName>;
}

/** The codecs' decoders, for the wire object's values (wire.ts). */
export const decodeList = jsonList.decode;
export const decodeFlag = zeroOrOne.decode;

const IAB = /^IAB[0-9]{1,2}(-[0-9]{1,2})?$/;
const iabCategories = () => idList({ max: 200, pattern: IAB, patternText: 'an IAB category such as IAB19-6' });
const appId = () => text({ max: 255 });

/** The settings POST may leave out and PUT may change; PUT may unset (an empty value is null) all but the two KEPT. */
const OPTIONAL = {
  advertiser_domain: text({ max: 255 }),
  advertiser_user_id: platformId(),
  android_app_store_identifier: appId(),
  ios_app_store_identifier: appId(),
  audience_expansion: oneOf(AUDIENCE_EXPANSIONS),
  bid_amount_local_micro: micros(),
  bid_strategy: oneOf(BID_STRATEGIES),
  categories: iabCategories(),
  duration_in_days: int({ allowed: DURATIONS_IN_DAYS }),
  end_time: time(),
  frequency_cap: int({ min: 1, max: 1000 }),
  name: text({ max: 255 }),
  pay_by: oneOf(PAY_BY),
  primary_web_event_tag: text({ max: 255 }),
  standard_delivery: bool(),
  total_budget_amount_local_micro: micros(),
  daily_budget_amount_local_micro: micros(),
};
const KEPT = ['bid_strategy', 'pay_by'] as const;
type Optional = typeof OPTIONAL;
type OnUpdate = { [K in keyof Optional]: K extends (typeof KEPT)[number] ? Optional[K] : ReturnType<Optional[K]['nullable']> };

/** POST accounts/:account_id/line_items (shared/reference/ads.md §3: the required five, and the rest). */
export const CREATE_PARAMS = {
  campaign_id: adsId().required(),
  objective: oneOf(OBJECTIVES).required(),
  placements: oneOfList(PLACEMENTS, PLACEMENT_ALIASES).required(),
  product_type: oneOf(PRODUCT_TYPES, PRODUCT_TYPE_ALIASES).required(),
  start_time: time().required(),
  ...OPTIONAL,
  entity_status: oneOf(LINE_ITEM_STATUSES_ON_CREATE),
  goal: oneOf(GOALS_ON_CREATE),
};

/** PUT accounts/:account_id/line_items/:line_item_id: every setting but objective and product type. */
export const UPDATE_PARAMS = {
  ...(Object.fromEntries(Object.entries(OPTIONAL).map(([name, param]) => [name, (KEPT as readonly string[]).includes(name) ? param : param.nullable()])) as OnUpdate),
  placements: oneOfList(PLACEMENTS, PLACEMENT_ALIASES),
  start_time: time(),
  entity_status: oneOf(LINE_ITEM_STATUSES_ON_UPDATE),
  goal: oneOf(GOALS_ON_UPDATE),
};

export const LINE_ITEM_SORTING = entitySorting(undefined, {
  name: { column: 'name', nullable: true },
  entity_status: { column: 'entity_status' },
  start_time: { column: 'start_time', nullable: true },
});

/** GET accounts/:account_id/line_items. */
export const LIST_PARAMS = {
  campaign_ids: idList(),
  funding_instrument_ids: idList(),
  line_item_ids: idList(),
  q: q(),
  with_draft: flag(),
  ...standardList(Object.keys(LINE_ITEM_SORTING.fields)),
};

export type LineItemListParams = Parsed<typeof LIST_PARAMS>;
export type LineItemCreate = Input<typeof CREATE_PARAMS>;
export type LineItemUpdate = Input<typeof UPDATE_PARAMS>;

/**
 * The settings a PUT changes: each value given, as the setting holds it (an empty `categories`
 * is the empty list). Typed so that a parameter whose value does not fit its setting fails to compile.
 */
export function changedSettings(p: LineItemUpdate): Partial<LineItemSettings> {
  const { categories, ...rest } = p;
  const fits: Partial<LineItemSettings> = rest;
  const out: Partial<LineItemSettings> = Object.fromEntries(Object.entries(fits).filter(([, value]) => value !== undefined));
  if (categories !== undefined) out.categories = categories ?? [];
  return out;
}
