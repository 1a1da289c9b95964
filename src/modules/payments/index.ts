import type { App } from '../../platform/http.js';
import type { CoreServices } from '../../app.js';
import { createPaymentsOffProvider } from './payments.off.js';
import { createLocalProvider, type LocalProvider } from './payments.local.js';
import type { EntitlementView } from './payments.plans.js';
import { paymentsRoutes } from './payments.routes.js';
import { paymentsSchemas } from './payments.schemas.js';
import { createPaymentsService, PAYMENTS_DAILY_JOB, PAYMENTS_EVENT_JOB, type PaymentsServiceImpl } from './payments.service.js';
import { createStripeProvider } from './payments.stripe.js';

export { createEntitlements, PLAN_LIMITS, type Entitlements, type EntitlementView, type PlanLimits } from './payments.plans.js';

/** What the payments module offers the rest of the service (entitlements; the whole service for tests and jobs). */
export interface PaymentsService {
  /** Plan and limits of a company right now (scans reads `scheduled_rescans`). */
  entitlementsOf(companyId: string): Promise<EntitlementView>;
  readonly impl: PaymentsServiceImpl;
}

/** Builds the payments service (the provider PAYMENTS_PROVIDER names: Stripe, the local test provider or off) and registers /api/payments. */
export async function paymentsModule(app: App, core: CoreServices, options: { clock?: () => Date } = {}): Promise<PaymentsService> {
  const { config } = core;
  const clock = options.clock ?? (() => new Date());
  const choice = config.payments.provider;
  const local: LocalProvider | undefined = choice === 'local' ? createLocalProvider({ db: core.db, baseUrl: config.baseUrl, clock }) : undefined;
  const provider = local ?? (choice === 'stripe' ? createStripeProvider(config) : createPaymentsOffProvider());
  if (choice === 'off') app.log.warn('payments are switched off (PAYMENTS_PROVIDER=off): no plan can be bought; set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to sell the pro plan');
  if (choice === 'local') app.log.warn('payments use the local test provider: a checkout is "paid" without a card (development and demos only)');
  const impl = createPaymentsService({
    db: core.db, config, provider, local, jobs: core.jobs, mail: core.mail, log: app.log, clock,
    owns: core.ownership.owns, companyIdsOf: core.ownership.companyIdsOf, ownerEmailsOf: core.ownership.ownerEmailsOf,
    companyName: async (id) => (await core.companies.getById(id)).name,
  });
  // Several at once (one worker takes a job per polling interval): events of one company serialise on its
  // subscription row lock, and each event is applied once (its row is locked and marked done in that transaction).
  core.jobs.define<{ event_id: string }>({ name: PAYMENTS_EVENT_JOB, retryLimit: 8, retryDelaySeconds: 30, concurrency: 4, handler: (d) => impl.processEvent(d.event_id) });
  core.jobs.define<object>({ name: PAYMENTS_DAILY_JOB, retryLimit: 2, handler: () => impl.daily() });
  core.jobs.schedule(PAYMENTS_DAILY_JOB, '23 4 * * *');
  for (const schema of paymentsSchemas) app.addSchema(schema);
  await app.register(paymentsRoutes, { prefix: '/api/payments', payments: impl, guards: core.guards, limits: core.limits });
  return { entitlementsOf: impl.entitlementsOf, impl };
}
