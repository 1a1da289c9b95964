import type { Config } from '../../config.js';
import type { Queryable } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { createPaymentsRepo } from './payments.repo.js';
import type { BillingInterval, PlanId, SubscriptionRecord, SubscriptionStatus } from './payments.types.js';

/**
 * Plans and what they unlock: the one place. Read-only, built before the core services that
 * enforce (createServices), so they never reach into the payments module itself.
 */
export interface PlanLimits {
  /** The widget may hide the "powered by" line. */
  widget_unbranded: boolean;
  /** Days of unanswered-query insights kept visible. */
  insights_history_days: number;
  insights_csv_export: boolean;
  /** Manual scans a company may start per calendar month. */
  scans_per_month: number;
  /** Weekly automatic re-scans. */
  scheduled_rescans: boolean;
  /** Administrators may feature the company on the directory home page. */
  featuring_eligible: boolean;
}

export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  free: { widget_unbranded: false, insights_history_days: 7, insights_csv_export: false, scans_per_month: 5, scheduled_rescans: false, featuring_eligible: false },
  pro: { widget_unbranded: true, insights_history_days: 90, insights_csv_export: true, scans_per_month: 100, scheduled_rescans: true, featuring_eligible: true },
};

/** Statuses that grant the plan: past_due is the grace while the provider retries the card. */
export const ENTITLED_STATUSES = ['active', 'trialing', 'past_due'] as const;

export interface PlanPrice {
  id: PlanId;
  interval: BillingInterval | null;
  amount: number;
  currency: string;
}

export function planPrices(config: Pick<Config, 'payments'>): PlanPrice[] {
  const { proAmounts, currency } = config.payments;
  return [
    { id: 'free', interval: null, amount: 0, currency },
    { id: 'pro', interval: 'month', amount: proAmounts.month, currency },
    { id: 'pro', interval: 'year', amount: proAmounts.year, currency },
  ];
}

export interface EntitlementView {
  plan: string;
  effective_plan: PlanId;
  status: SubscriptionStatus | 'none';
  entitled: boolean;
  limits: PlanLimits;
  /** For the scans module (scans.entitlement.ts reads this field first). */
  scheduled_rescans: boolean;
}

/**
 * Entitled while the status is active, trialing or past_due, and (for records that have a fixed end:
 * set by an administrator, or cancelled at period end) the period has not ended.
 */
export function isEntitled(row: SubscriptionRecord | undefined, now: Date): boolean {
  if (!row || row.plan === 'free') return false;
  if (!(ENTITLED_STATUSES as readonly string[]).includes(row.status)) return false;
  const fixedEnd = row.source === 'admin' || row.cancel_at_period_end;
  return !(fixedEnd && row.period_end && row.period_end.getTime() <= now.getTime());
}

export function entitlementOf(row: SubscriptionRecord | undefined, now: Date): EntitlementView {
  const entitled = isEntitled(row, now);
  const effective: PlanId = entitled && row!.plan in PLAN_LIMITS ? (row!.plan as PlanId) : entitled ? 'pro' : 'free';
  const limits = PLAN_LIMITS[effective];
  return { plan: row?.plan ?? 'free', effective_plan: effective, status: row?.status ?? 'none', entitled, limits, scheduled_rescans: limits.scheduled_rescans };
}

export interface Entitlements {
  entitlementsOf(companyId: string): Promise<EntitlementView>;
  /** Throws 402 payment_required naming the plan that unlocks `feature` when the company lacks it. */
  require(companyId: string, feature: keyof PlanLimits, what: string): Promise<void>;
}

export function createEntitlements(db: Queryable, clock: () => Date = () => new Date()): Entitlements {
  const repo = createPaymentsRepo(db);
  const entitlementsOf = async (companyId: string) => entitlementOf(await repo.subscription(companyId), clock());
  return {
    entitlementsOf,
    async require(companyId, feature, what) {
      const e = await entitlementsOf(companyId);
      if (e.limits[feature]) return;
      throw new AppError('payment_required', `${what} needs the pro plan; this company is on ${e.effective_plan}. An owner can upgrade under Billing (POST /api/payments/create-checkout).`);
    },
  };
}
