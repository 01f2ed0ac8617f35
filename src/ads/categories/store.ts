import type { AdsLineItemCuratedCategoryTable } from '../../store/schema-ads.js';

export type LineItemCuratedCategoryRow = AdsLineItemCuratedCategoryTable;
