/**
 * Platform-provided reference data of the advertising interface: advertiser business categories
 * (each a set of IAB categories, for PREROLL_VIEWS line items) and curated categories (sets of
 * publishers, each available only in its countries). Fixed lists, the same for every account and
 * both environments, modelled on the public platform's published examples.
 */

export interface AdvertiserBusinessCategory {
  id: string;
  name: string;
  iab_categories: string[];
}

const range = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}-${from + i}`);

export const ADVERTISER_BUSINESS_CATEGORIES: readonly AdvertiserBusinessCategory[] = [
  { id: '1jl', name: 'Consumer Packaged Goods', iab_categories: ['IAB4', 'IAB6', 'IAB10', 'IAB16', 'IAB22', 'IAB23', ...range('IAB9', 1, 6), ...range('IAB9', 8, 29), 'IAB9-31'] },
  { id: '1jm', name: 'Health & Pharma', iab_categories: ['IAB7'] },
  { id: '1jn', name: 'Alcohol', iab_categories: ['IAB8-5', 'IAB8-18'] },
  { id: '1jo', name: 'Dining', iab_categories: [...range('IAB8', 1, 4), ...range('IAB8', 6, 17)] },
  { id: '1jp', name: 'Financial Services', iab_categories: ['IAB3', 'IAB13', 'IAB21'] },
  { id: '1jq', name: 'Retail', iab_categories: ['IAB18'] },
  { id: '1jr', name: 'Travel', iab_categories: ['IAB20'] },
  { id: '1js', name: 'Gaming', iab_categories: ['IAB9-30'] },
  { id: '1jt', name: 'Technology', iab_categories: ['IAB5', 'IAB15', ...range('IAB19', 1, 5), ...range('IAB19', 7, 17), ...range('IAB19', 19, 36)] },
  { id: '1ju', name: 'Telecommunication', iab_categories: ['IAB19-6', 'IAB19-18'] },
  { id: '1jv', name: 'Auto', iab_categories: ['IAB2'] },
  { id: '1jw', name: 'Media & Entertainment', iab_categories: [...range('IAB1', 1, 7), 'IAB12', ...range('IAB14', 2, 8), 'IAB17', 'IAB25-1'] },
  { id: '1jx', name: 'Politics', iab_categories: ['IAB11-4'] },
  { id: '1jy', name: 'Gambling', iab_categories: ['IAB9-7'] },
  { id: '1jz', name: 'Dating', iab_categories: ['IAB14-1'] },
  { id: '1k0', name: 'Non-Profit', iab_categories: ['IAB11-1', 'IAB11-2', 'IAB11-3', 'IAB11-5'] },
];

/** The advertiser business category holding an IAB category, if any. */
export function businessCategoryOf(iab: string): AdvertiserBusinessCategory | undefined {
  return ADVERTISER_BUSINESS_CATEGORIES.find((c) => c.iab_categories.includes(iab));
}

export interface CuratedCategory {
  id: string;
  name: string;
  description: string;
  country_codes: string[];
  publisher_user_ids: string[];
  videos_monetized_in_last_thirty_days: number;
  created_at: string;
  updated_at: string;
}

export const CURATED_CATEGORIES: readonly CuratedCategory[] = [
  {
    id: '929wbl6ymlfk',
    name: 'Basketball',
    description: 'Run next to the best of everyday basketball content: college teams, professional teams and the sports media sharing on and off-season video.',
    country_codes: ['US'],
    publisher_user_ids: ['20265254', '378174762', '900368808', '18939563'],
    videos_monetized_in_last_thirty_days: 2446,
    created_at: '2019-11-08T21:12:47.000Z',
    updated_at: '2021-03-09T20:36:44.000Z',
  },
  {
    id: '94ngssfrr01x',
    name: 'Gaming Personalities',
    description: "Run next to everyday gaming content from some of online gaming's best loved digital creators.",
    country_codes: ['US', 'CA'],
    publisher_user_ids: ['90779436', '268270621', '567167802'],
    videos_monetized_in_last_thirty_days: 448,
    created_at: '2019-12-02T20:45:12.000Z',
    updated_at: '2021-03-09T20:18:13.000Z',
  },
  {
    id: '8tujg1lvi8sn',
    name: 'Football',
    description: 'Run next to everyday football content: clubs, leagues and the sports media covering them.',
    country_codes: ['GB', 'FR', 'ES', 'BR'],
    publisher_user_ids: ['21790466', '53103297', '23642374'],
    videos_monetized_in_last_thirty_days: 254,
    created_at: '2019-08-15T20:48:51.000Z',
    updated_at: '2021-03-09T20:34:13.000Z',
  },
  {
    id: '9ys3jz3ktreo',
    name: 'Esports Teams',
    description: "Run next to programming from the world's best esports teams, in-event and year-round.",
    country_codes: ['US', 'GB', 'JP', 'KR'],
    publisher_user_ids: ['759527448757215232', '61933836', '477213534'],
    videos_monetized_in_last_thirty_days: 169,
    created_at: '2020-10-01T20:02:35.000Z',
    updated_at: '2021-03-09T20:36:20.000Z',
  },
  {
    id: '9lav5usxfmdc',
    name: 'Anime & Manga',
    description: 'Run next to anime and manga news, trailers and fan favourites.',
    country_codes: ['JP'],
    publisher_user_ids: ['22016177', '22798877'],
    videos_monetized_in_last_thirty_days: 190,
    created_at: '2020-05-18T20:20:27.000Z',
    updated_at: '2021-03-09T20:37:46.000Z',
  },
];

export function findCuratedCategory(id: string): CuratedCategory | undefined {
  return CURATED_CATEGORIES.find((c) => c.id === id);
}
