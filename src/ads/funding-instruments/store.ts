import type { AdsFundingInstrumentTable } from '../../store/schema-ads.js';

export type FundingInstrumentRow = AdsFundingInstrumentTable;
