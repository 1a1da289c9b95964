import type { Queryable } from '../../platform/db.js';
import type { BillingInterval, SubscriptionRecord, SubscriptionStatus } from './payments.types.js';

/** SQL of the payments module only. */
export interface CheckoutRow {
  id: string; company_id: string; provider: string; plan: string; billing_interval: BillingInterval; promo_id: number | null;
  status: 'open' | 'complete' | 'expired'; url: string; success_url: string; cancel_url: string; idempotency_key: string | null;
  amount: number; amount_discounted: number; currency: string; expires_at: Date; created_at: Date;
  /** 'user:<id>' or 'admin:<email>'; null on checkouts opened before it was recorded. */
  opened_by: string | null;
}
export interface InvoiceRow {
  id: string; company_id: string; number: string | null; status: string; amount_paid: number; amount_due: number; currency: string;
  created: Date; hosted_invoice_url: string | null; invoice_pdf: string | null;
}
export interface PromoRow {
  id: number; code: string; description: string; discount_type: 'percent' | 'amount'; percent_off: string | number | null; amount_off: number | null;
  currency: string | null; duration: 'once' | 'repeating' | 'forever'; duration_in_months: number | null; plans: string[] | null; intervals: string[] | null;
  first_time_only: boolean; max_redemptions: number | null; times_redeemed: number; expires_at: Date | null; active: boolean;
  provider: string | null; provider_coupon_id: string | null; provider_promotion_code_id: string | null; created_by: string | null; created_at: Date; updated_at: Date;
}
export interface EventRow { event_id: string; provider: string; type: string; created: Date; status: string; attempts: number; payload: unknown }

export interface ProviderSubscriptionWrite {
  company_id: string; plan: string; status: SubscriptionStatus; period_end: Date | null; provider: string; provider_subscription_id: string;
  billing_interval: BillingInterval | null; cancel_at_period_end: boolean; cancel_at: Date | null; trial_end: Date | null; last_event_at: Date | null;
}

/** What an administrator sets by hand (PUT /api/tools/admin/companies/{tool_id}/subscription). */
export interface AdminGrant {
  company_id: string; plan: string; status: SubscriptionStatus; period_start: Date | null; period_end: Date | null; note: string;
}

/** A subscription as administrators list it, with its company. */
export interface AdminSubscriptionRow extends SubscriptionRecord {
  company_name: string;
  company_domain: string;
}

export function createPaymentsRepo(db: Queryable) {
  const one = async <T>(sql: string, params: unknown[]) => (await db.query<T>(sql, params))[0];
  return {
    subscription: (companyId: string, lock = false) =>
      one<SubscriptionRecord>(`SELECT * FROM company_subscriptions WHERE company_id = $1${lock ? ' FOR UPDATE' : ''}`, [companyId]),

    /** Subscriptions of live companies, by company name; filtered by status (`ending`: cancelled at the period's end) and name or domain. */
    async listSubscriptions(f: { status?: string | undefined; q?: string | undefined; limit: number; offset: number }): Promise<{ rows: AdminSubscriptionRow[]; total: number }> {
      const where = ['c.deleted_at IS NULL', "s.plan <> 'free'"];
      const params: unknown[] = [];
      if (f.status === 'ending') where.push("s.cancel_at_period_end AND s.status <> 'canceled'");
      else if (f.status) where.push(`s.status = $${params.push(f.status)}`);
      if (f.q) where.push(`(c.name ILIKE $${params.push(`%${f.q.replace(/[\\%_]/g, '\\$&')}%`)} OR c.domain ILIKE $${params.length})`);
      const from = `FROM company_subscriptions s JOIN companies c ON c.id = s.company_id WHERE ${where.join(' AND ')}`;
      const [rows, count] = await Promise.all([
        db.query<AdminSubscriptionRow>(`SELECT s.*, c.name AS company_name, c.domain AS company_domain ${from} ORDER BY lower(c.name), c.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, f.limit, f.offset]),
        db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params),
      ]);
      return { rows, total: count[0]!.n };
    },

    /** Subscriptions of live companies per status, interval and origin (the summary above the administrators' list). */
    subscriptionCounts: () =>
      db.query<{ status: string; billing_interval: string | null; source: string; ending: boolean; n: number }>(
        `SELECT s.status, s.billing_interval, s.source, s.cancel_at_period_end AS ending, count(*)::int AS n
           FROM company_subscriptions s JOIN companies c ON c.id = s.company_id WHERE c.deleted_at IS NULL AND s.plan <> 'free'
          GROUP BY 1, 2, 3, 4`,
        [],
      ),

    subscriptionsOf: (companyIds: string[]) =>
      companyIds.length === 0 ? Promise.resolve([]) : db.query<SubscriptionRecord>('SELECT * FROM company_subscriptions WHERE company_id = ANY($1::uuid[])', [companyIds]),

    /** An administrator's grant: replaces the plan and its period; the provider's cancel and failure state belonged to the plan it replaces (no false "plan ends" mail). */
    async grantByAdmin(s: AdminGrant): Promise<SubscriptionRecord> {
      return (await one<SubscriptionRecord>(
        `INSERT INTO company_subscriptions (company_id, plan, status, period_start, period_end, source, note)
         VALUES ($1, $2, $3, $4, $5, 'admin', $6)
         ON CONFLICT (company_id) DO UPDATE SET plan = EXCLUDED.plan, status = EXCLUDED.status, period_start = EXCLUDED.period_start,
           period_end = EXCLUDED.period_end, source = EXCLUDED.source, note = EXCLUDED.note, updated_at = now(),
           cancel_at_period_end = false, cancel_at = NULL, payment_failed_at = NULL, ending_notice_for = NULL
         RETURNING *`,
        [s.company_id, s.plan, s.status, s.period_start, s.period_end, s.note],
      ))!;
    },

    async writeProviderSubscription(s: ProviderSubscriptionWrite): Promise<SubscriptionRecord> {
      return (await one<SubscriptionRecord>(
        `INSERT INTO company_subscriptions (company_id, plan, status, period_end, source, note, provider, provider_subscription_id, billing_interval,
           cancel_at_period_end, cancel_at, trial_end, last_event_at)
         VALUES ($1, $2, $3, $4, $5, '', $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (company_id) DO UPDATE SET plan = EXCLUDED.plan, status = EXCLUDED.status, period_end = EXCLUDED.period_end,
           period_start = CASE WHEN company_subscriptions.provider_subscription_id IS DISTINCT FROM EXCLUDED.provider_subscription_id THEN now() ELSE company_subscriptions.period_start END,
           source = EXCLUDED.source, provider = EXCLUDED.provider, provider_subscription_id = EXCLUDED.provider_subscription_id,
           billing_interval = EXCLUDED.billing_interval, cancel_at_period_end = EXCLUDED.cancel_at_period_end, cancel_at = EXCLUDED.cancel_at,
           trial_end = EXCLUDED.trial_end, last_event_at = GREATEST(company_subscriptions.last_event_at, EXCLUDED.last_event_at),
           payment_failed_at = CASE WHEN EXCLUDED.status IN ('active', 'trialing') THEN NULL ELSE company_subscriptions.payment_failed_at END,
           updated_at = now()
         RETURNING *`,
        [s.company_id, s.plan, s.status, s.period_end, s.provider, s.provider_subscription_id, s.billing_interval, s.cancel_at_period_end, s.cancel_at, s.trial_end, s.last_event_at],
      ))!;
    },
    setPaymentFailed: (companyId: string, at: Date | null) =>
      one<{ company_id: string }>('UPDATE company_subscriptions SET payment_failed_at = $2, updated_at = now() WHERE company_id = $1 RETURNING company_id', [companyId, at]),
    markEndingNotice: (companyId: string, periodEnd: Date) =>
      one<{ company_id: string }>(
        `UPDATE company_subscriptions SET ending_notice_for = $2 WHERE company_id = $1 AND ending_notice_for IS DISTINCT FROM $2 RETURNING company_id`, [companyId, periodEnd]),
    endingSoon: (now: Date, until: Date) =>
      db.query<SubscriptionRecord>(
        `SELECT * FROM company_subscriptions WHERE cancel_at_period_end AND status IN ('active', 'trialing', 'past_due')
           AND period_end > $1::timestamptz AND period_end <= $2::timestamptz AND ending_notice_for IS DISTINCT FROM period_end`, [now, until]),

    customerOf: (companyId: string) => one<{ customer_id: string; provider: string }>('SELECT customer_id, provider FROM billing_customers WHERE company_id = $1', [companyId]),
    companyOfCustomer: async (customerId: string) => (await one<{ company_id: string }>('SELECT company_id FROM billing_customers WHERE customer_id = $1', [customerId]))?.company_id,
    async linkCustomer(companyId: string, provider: string, customerId: string, email: string | null): Promise<void> {
      await db.query(`INSERT INTO billing_customers (company_id, provider, customer_id, email) VALUES ($1, $2, $3, $4) ON CONFLICT (company_id) DO NOTHING`, [companyId, provider, customerId, email]);
    },

    checkout: (id: string) => one<CheckoutRow>('SELECT * FROM checkouts WHERE id = $1', [id]),
    checkoutByKey: (companyId: string, openedBy: string, key: string) =>
      one<CheckoutRow>('SELECT * FROM checkouts WHERE company_id = $1 AND opened_by = $2 AND idempotency_key = $3', [companyId, openedBy, key]),
    /** An open checkout of this caller for the same choice (never another caller's: its return URLs are theirs). */
    openCheckout: (companyId: string, openedBy: string, plan: string, interval: string, promoId: number | null, now: Date) =>
      one<CheckoutRow>(
        `SELECT * FROM checkouts WHERE company_id = $1 AND opened_by = $2 AND plan = $3 AND billing_interval = $4 AND promo_id IS NOT DISTINCT FROM $5
           AND status = 'open' AND expires_at > $6::timestamptz + interval '5 minutes' ORDER BY created_at DESC LIMIT 1`, [companyId, openedBy, plan, interval, promoId, now]),
    async insertCheckout(c: Omit<CheckoutRow, 'status' | 'created_at'>): Promise<CheckoutRow> {
      return (await one<CheckoutRow>(
        `INSERT INTO checkouts (id, company_id, provider, plan, billing_interval, promo_id, url, success_url, cancel_url, idempotency_key, amount, amount_discounted, currency, expires_at, opened_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *`,
        [
          c.id, c.company_id, c.provider, c.plan, c.billing_interval, c.promo_id, c.url, c.success_url, c.cancel_url, c.idempotency_key,
          c.amount, c.amount_discounted, c.currency, c.expires_at, c.opened_by,
        ],
      ))!;
    },
    markCheckout: (id: string, status: 'complete' | 'expired') => one<CheckoutRow>('UPDATE checkouts SET status = $2 WHERE id = $1 RETURNING *', [id, status]),
    hasCompletedCheckout: async (companyId: string) => !!(await one<{ id: string }>(`SELECT id FROM checkouts WHERE company_id = $1 AND status = 'complete' LIMIT 1`, [companyId])),

    async upsertInvoice(i: InvoiceRow): Promise<void> {
      await db.query(
        `INSERT INTO invoices (id, company_id, number, status, amount_paid, amount_due, currency, created, hosted_invoice_url, invoice_pdf)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, amount_paid = EXCLUDED.amount_paid, amount_due = EXCLUDED.amount_due,
           hosted_invoice_url = EXCLUDED.hosted_invoice_url, invoice_pdf = EXCLUDED.invoice_pdf, number = EXCLUDED.number`,
        [i.id, i.company_id, i.number, i.status, i.amount_paid, i.amount_due, i.currency, i.created, i.hosted_invoice_url, i.invoice_pdf],
      );
    },
    invoices: (companyId: string) => db.query<InvoiceRow>('SELECT * FROM invoices WHERE company_id = $1 ORDER BY created DESC LIMIT 24', [companyId]),

    /** false when the event id was seen before (a replay). */
    async insertEvent(e: { event_id: string; provider: string; type: string; created: Date; status: 'pending' | 'ignored'; payload: unknown }): Promise<boolean> {
      const rows = await db.query<{ event_id: string }>(
        `INSERT INTO payment_events (event_id, provider, type, created, status, payload) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
         ON CONFLICT (event_id) DO NOTHING RETURNING event_id`, [e.event_id, e.provider, e.type, e.created, e.status, JSON.stringify(e.payload)]);
      return rows.length > 0;
    },
    event: (eventId: string) => one<EventRow>('SELECT * FROM payment_events WHERE event_id = $1', [eventId]),
    lockEvent: (eventId: string) => one<EventRow>('SELECT * FROM payment_events WHERE event_id = $1 FOR UPDATE', [eventId]),
    async finishEvent(eventId: string, status: 'done' | 'failed', error: string | null): Promise<void> {
      await db.query('UPDATE payment_events SET status = $2, error = $3, attempts = attempts + 1 WHERE event_id = $1', [eventId, status, error]);
    },
    pendingEvents: () => db.query<{ event_id: string }>(`SELECT event_id FROM payment_events WHERE status IN ('pending', 'failed') AND attempts < 20 ORDER BY created, received_at LIMIT 500`, []),

    promo: (id: number) => one<PromoRow>('SELECT * FROM promo_codes WHERE id = $1', [id]),
    promoByCode: (code: string) => one<PromoRow>('SELECT * FROM promo_codes WHERE code = $1', [code.toUpperCase()]),
    listPromos: (o: { active?: boolean | undefined; q?: string | undefined; after?: number | undefined; limit: number }) =>
      db.query<PromoRow>(
        `SELECT * FROM promo_codes WHERE ($1::boolean IS NULL OR active = $1) AND ($2::text IS NULL OR code LIKE '%' || $2 || '%' OR description ILIKE '%' || $2 || '%')
           AND ($3::integer IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`, [o.active ?? null, o.q ?? null, o.after ?? null, o.limit]),
    async insertPromo(p: Omit<PromoRow, 'id' | 'times_redeemed' | 'created_at' | 'updated_at' | 'provider' | 'provider_coupon_id' | 'provider_promotion_code_id'>): Promise<PromoRow | undefined> {
      return one<PromoRow>(
        `INSERT INTO promo_codes (code, description, discount_type, percent_off, amount_off, currency, duration, duration_in_months, plans, intervals, first_time_only, max_redemptions, expires_at, active, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (code) DO NOTHING RETURNING *`,
        [
          p.code,
          p.description,
          p.discount_type,
          p.percent_off,
          p.amount_off,
          p.currency,
          p.duration,
          p.duration_in_months,
          p.plans,
          p.intervals,
          p.first_time_only,
          p.max_redemptions,
          p.expires_at,
          p.active,
          p.created_by,
        ],
      );
    },
    setPromoProvider: (id: number, provider: string, couponId: string | null, promotionCodeId: string | null) =>
      one<PromoRow>('UPDATE promo_codes SET provider = $2, provider_coupon_id = $3, provider_promotion_code_id = $4 WHERE id = $1 RETURNING *', [id, provider, couponId, promotionCodeId]),
    updatePromo: (id: number, p: { active?: boolean | undefined; description?: string | undefined; expires_at?: Date | null | undefined; max_redemptions?: number | null | undefined }) =>
      one<PromoRow>(
        `UPDATE promo_codes SET active = COALESCE($2, active), description = COALESCE($3, description),
           expires_at = CASE WHEN $4 THEN $5::timestamptz ELSE expires_at END, max_redemptions = CASE WHEN $6 THEN $7::integer ELSE max_redemptions END,
           updated_at = now() WHERE id = $1 RETURNING *`,
        [id, p.active ?? null, p.description ?? null, p.expires_at !== undefined, p.expires_at ?? null, p.max_redemptions !== undefined, p.max_redemptions ?? null]),
    /** Counts one redemption per completed checkout (a replayed event finds the row and counts nothing). */
    async redeem(promoId: number, companyId: string, checkoutId: string): Promise<boolean> {
      const rows = await db.query<{ checkout_id: string }>(
        'INSERT INTO promo_redemptions (promo_id, company_id, checkout_id) VALUES ($1, $2, $3) ON CONFLICT (checkout_id) DO NOTHING RETURNING checkout_id', [promoId, companyId, checkoutId]);
      if (rows.length === 0) return false;
      await db.query('UPDATE promo_codes SET times_redeemed = times_redeemed + 1 WHERE id = $1', [promoId]);
      return true;
    },
  };
}

export type PaymentsRepo = ReturnType<typeof createPaymentsRepo>;
