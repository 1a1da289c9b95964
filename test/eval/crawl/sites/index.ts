import { AU_SITES, CA_SITES } from './sites-ca-au.js';
import { HOLDOUT_SITES as HOLDOUT_1 } from './sites-holdout.js';
import { HOLDOUT_SITES_2 } from './sites-holdout-2.js';
import { UK_SITES } from './sites-uk.js';
import { US_SITES } from './sites-us.js';
import type { EvalSite } from './types.js';

export type { EvalSite } from './types.js';
export { HOURS_SITES } from './sites-hours.js';
export { PRICE_SITES } from './sites-prices.js';
export { SERVICE_PRICE_SITES } from './sites-service-prices.js';

/** The evaluation set for crawl extraction (issue 19): small-business sites in the styles the web uses. */
export const EVAL_SITES: EvalSite[] = [...US_SITES, ...UK_SITES, ...CA_SITES, ...AU_SITES];

/** Two batches written after the code, each scored once before any fix (first scores in the README). */
export const HOLDOUT_SITES: EvalSite[] = [...HOLDOUT_1, ...HOLDOUT_SITES_2];
