import type { App } from '../../platform/http.js';
import type { CoreServices } from '../../app.js';

/** What the payments module offers the rest of the service (entitlements, plans). Filled in by the payments work. */
export type PaymentsService = Record<string, never>;

/** Builds the payments service and registers its routes (/api/payments). */
export async function paymentsModule(_app: App, _core: CoreServices): Promise<PaymentsService> {
  return {};
}
