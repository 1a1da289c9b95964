import type { App } from '../../platform/http.js';
import type { CoreServices } from '../../app.js';
import type { PaymentsService } from '../payments/index.js';
import type { ScansService } from '../scans/index.js';

/** Registers the server-rendered public website (/, /search, /categories, /companies, sitemaps). Filled in by the site work. */
export async function siteModule(_app: App, _core: CoreServices & { payments: PaymentsService; scans: ScansService }): Promise<void> {}
