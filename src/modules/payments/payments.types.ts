/**
 * The plan and subscription shapes that the repo and the plan rules both use: kept below both so
 * payments.repo.ts does not import payments.plans.ts, which builds on the repo.
 */
export type PlanId = 'free' | 'pro';
export type BillingInterval = 'month' | 'year';

export const SUBSCRIPTION_STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The subscription record columns entitlement reads (company_subscriptions). */
export interface SubscriptionRecord {
  company_id: string;
  plan: string;
  status: SubscriptionStatus;
  period_start: Date | null;
  period_end: Date | null;
  source: string;
  note: string;
  provider: string | null;
  provider_subscription_id: string | null;
  billing_interval: BillingInterval | null;
  cancel_at_period_end: boolean;
  cancel_at: Date | null;
  trial_end: Date | null;
  payment_failed_at: Date | null;
  last_event_at: Date | null;
  ending_notice_for: Date | null;
  updated_at: Date;
}
