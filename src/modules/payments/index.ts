import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Guards } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { HttpModule } from '../../platform/module.js';
import type { Jobs } from '../../platform/jobs.js';
import type { MailService } from '../../platform/mail.js';
import type { SharedLimits } from '../../platform/shared-limits.js';
import { createPaymentsOffProvider } from './payments.off.js';
import { createLocalProvider, type LocalProvider } from './payments.local.js';
import { createPaymentsRepo, type AdminGrant } from './payments.repo.js';
import { paymentsRoutes } from './payments.routes.js';
import { paymentsSchemas } from './payments.schemas.js';
import { createPaymentsService, PAYMENTS_DAILY_JOB, PAYMENTS_EVENT_JOB, type PaymentsServiceImpl } from './payments.service.js';
import { createStripeProvider } from './payments.stripe.js';

export { createEntitlements, PLAN_LIMITS, type Entitlements, type EntitlementView, type PlanLimits } from './payments.plans.js';

/**
 * The subscription records as administrators read and grant them (company management): payments stays the one
 * writer of company_subscriptions; a grant runs in the caller's transaction, next to its audit entry.
 */
export function createSubscriptionGrants(db: Queryable) {
  return {
    of: (companyId: string, q: Queryable = db) => createPaymentsRepo(q).subscription(companyId),
    ofMany: (companyIds: string[]) => createPaymentsRepo(db).subscriptionsOf(companyIds),
    grant: (q: Queryable, g: AdminGrant) => createPaymentsRepo(q).grantByAdmin(g),
  };
}

/** Subscriptions, checkouts, promo codes and entitlements (the whole service: routes, jobs, scans and tests use it). */
export type PaymentsService = PaymentsServiceImpl;

/** What the payments service is built from (services.ts supplies it). */
export interface PaymentsDeps {
  db: Db;
  config: Config;
  jobs: Jobs;
  mail: MailService;
  log: FastifyBaseLogger;
  clock?: () => Date;
  /** The ownership module's lookups. */
  owns(userId: string, companyId: string): Promise<boolean>;
  companyIdsOf(userId: string): Promise<string[]>;
  ownerEmailsOf(companyId: string): Promise<string[]>;
  companyName(companyId: string): Promise<string>;
}

/** Builds the payments service on the provider PAYMENTS_PROVIDER names (Stripe, the local test provider or off) and defines its jobs. */
export function createPayments(deps: PaymentsDeps): PaymentsService {
  const { config, log, jobs } = deps;
  const clock = deps.clock ?? (() => new Date());
  const choice = config.payments.provider;
  const local: LocalProvider | undefined = choice === 'local' ? createLocalProvider({ db: deps.db, baseUrl: config.baseUrl, clock }) : undefined;
  const provider = local ?? (choice === 'stripe' ? createStripeProvider(config) : createPaymentsOffProvider());
  if (choice === 'off') log.warn('payments are switched off (PAYMENTS_PROVIDER=off): no plan can be bought; set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to sell the pro plan');
  if (choice === 'local') log.warn('payments use the local test provider: a checkout is "paid" without a card (development and demos only)');
  const payments = createPaymentsService({
    db: deps.db, config, provider, local, jobs, mail: deps.mail, log, clock,
    owns: deps.owns, companyIdsOf: deps.companyIdsOf, ownerEmailsOf: deps.ownerEmailsOf, companyName: deps.companyName,
  });
  // Several at once (one worker takes a job per polling interval): events of one company serialise on its
  // subscription row lock, and each event is applied once (its row is locked and marked done in that transaction).
  jobs.define<{ event_id: string }>({ name: PAYMENTS_EVENT_JOB, retryLimit: 8, retryDelaySeconds: 30, concurrency: 4, handler: (d) => payments.processEvent(d.event_id) });
  jobs.define<object>({ name: PAYMENTS_DAILY_JOB, retryLimit: 2, handler: () => payments.daily() });
  jobs.schedule(PAYMENTS_DAILY_JOB, '23 4 * * *');
  return payments;
}

/** What the payments routes need. */
export interface PaymentsModuleDeps {
  payments: PaymentsService;
  guards: Guards;
  limits: SharedLimits;
}

/** Checkout, the billing portal, provider webhooks and promo codes under /api/payments. */
export const paymentsModule: HttpModule<PaymentsModuleDeps> = {
  name: 'payments',
  schemas: paymentsSchemas,
  async routes(app, { payments, guards, limits }) {
    await app.register(paymentsRoutes, { prefix: '/api/payments', payments, guards, limits });
  },
};
