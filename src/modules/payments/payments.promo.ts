import { AppError, invalid } from '../../platform/errors.js';
import type { BillingInterval } from './payments.types.js';
import type { PaymentProvider } from './payments.provider.js';
import type { PaymentsRepo, PromoRow } from './payments.repo.js';
import type { PromoCreate, PromoUpdate } from './payments.schemas.js';

/** Promo codes: validated from the database only (fast, offline); counted once per completed checkout. */
export type PromoReason = 'not_found' | 'inactive' | 'expired' | 'exhausted' | 'not_applicable' | 'first_time_only';

export function promoView(p: PromoRow) {
  return {
    id: p.id, code: p.code, description: p.description, discount: discountOf(p), plans: p.plans, intervals: p.intervals,
    first_time_only: p.first_time_only, max_redemptions: p.max_redemptions, times_redeemed: p.times_redeemed,
    expires_at: p.expires_at?.toISOString() ?? null, active: p.active, created_at: p.created_at.toISOString(), updated_at: p.updated_at.toISOString(),
  };
}

function discountOf(p: PromoRow) {
  return {
    type: p.discount_type,
    percent_off: p.percent_off === null ? null : Number(p.percent_off),
    amount_off: p.amount_off,
    currency: p.currency,
    duration: p.duration,
    duration_in_months: p.duration_in_months,
  };
}

export function discounted(p: PromoRow | undefined, amount: number, currency: string): number {
  if (!p) return amount;
  if (p.discount_type === 'percent') return Math.round((amount * (100 - Number(p.percent_off))) / 100);
  return p.currency === currency ? Math.max(0, amount - (p.amount_off ?? 0)) : amount;
}

const IMMUTABLE = ['code', 'discount_type', 'percent_off', 'amount_off', 'currency', 'duration', 'duration_in_months', 'plans', 'intervals', 'first_time_only'];

export function createPromoService(deps: { repo: PaymentsRepo; provider: PaymentProvider; clock: () => Date }) {
  const { repo, provider, clock } = deps;

  /** Why a code cannot be used now (undefined: it can). */
  async function check(p: PromoRow | undefined, plan: string, interval: BillingInterval | undefined, companyId: string | undefined): Promise<PromoReason | undefined> {
    if (!p) return 'not_found';
    if (!p.active) return 'inactive';
    if (p.expires_at && p.expires_at.getTime() <= clock().getTime()) return 'expired';
    if (p.max_redemptions !== null && p.times_redeemed >= p.max_redemptions) return 'exhausted';
    if (p.plans && !p.plans.includes(plan)) return 'not_applicable';
    if (interval && p.intervals && !p.intervals.includes(interval)) return 'not_applicable';
    if (p.first_time_only && companyId && (await repo.hasCompletedCheckout(companyId))) return 'first_time_only';
    return undefined;
  }

  return {
    check,
    async validate(body: { code: string; plan: string; interval?: BillingInterval | undefined; tool_id?: string | undefined }, price: { amount: number; currency: string; interval: BillingInterval }) {
      const code = body.code.trim().toUpperCase();
      const p = await repo.promoByCode(code);
      const reason = await check(p, body.plan, body.interval, body.tool_id);
      if (reason) return { valid: false, code, reason };
      return {
        valid: true, code, discount: discountOf(p!),
        price: { currency: price.currency, amount: price.amount, amount_discounted: discounted(p, price.amount, price.currency), interval: price.interval },
        note: p!.duration === 'once' ? 'first payment only' : p!.duration === 'repeating' ? `${p!.duration_in_months} months` : 'every payment',
      };
    },
    async list(q: { active?: boolean | undefined; q?: string | undefined; cursor?: string | undefined; limit?: number | undefined }) {
      const limit = q.limit ?? 50;
      const after = q.cursor ? Number(q.cursor) : undefined;
      if (after !== undefined && !(Number.isInteger(after) && after > 0 && after <= 2_147_483_647)) throw invalid(['query', 'cursor'], 'Unknown cursor: use next_cursor of the previous page', q.cursor);
      const rows = await repo.listPromos({ active: q.active, q: q.q?.trim().toUpperCase() || undefined, after, limit });
      return { items: rows.map(promoView), next_cursor: rows.length === limit ? String(rows[rows.length - 1]!.id) : null };
    },
    async create(body: PromoCreate, actorEmail: string) {
      if (body.discount_type === 'percent' && body.percent_off === undefined) throw invalid(['body', 'percent_off'], 'percent_off is required for a percent discount');
      if (body.discount_type === 'amount' && (body.amount_off === undefined || !body.currency)) throw invalid(['body', 'amount_off'], 'amount_off and currency are required for an amount discount');
      if (body.duration === 'repeating' && !body.duration_in_months) throw invalid(['body', 'duration_in_months'], 'duration_in_months is required when duration is repeating');
      const row = await repo.insertPromo({
        code: body.code.trim().toUpperCase(), description: body.description ?? '', discount_type: body.discount_type,
        percent_off: body.discount_type === 'percent' ? body.percent_off! : null, amount_off: body.discount_type === 'amount' ? body.amount_off! : null,
        currency: body.discount_type === 'amount' ? body.currency!.toLowerCase() : null, duration: body.duration,
        duration_in_months: body.duration === 'repeating' ? body.duration_in_months! : null, plans: body.plans ?? null, intervals: body.intervals ?? null,
        first_time_only: body.first_time_only ?? false, max_redemptions: body.max_redemptions ?? null,
        expires_at: body.expires_at ? new Date(body.expires_at) : null, active: body.active ?? true, created_by: actorEmail,
      });
      if (!row) throw new AppError('conflict', `A promo code ${body.code.trim().toUpperCase()} exists already: codes are unique (case-insensitive)`);
      const ids = await provider.createPromo({
        promoId: row.id, code: row.code, discountType: row.discount_type, percentOff: row.percent_off === null ? null : Number(row.percent_off), amountOff: row.amount_off,
        currency: row.currency, duration: row.duration, durationInMonths: row.duration_in_months, maxRedemptions: row.max_redemptions, expiresAt: row.expires_at, firstTimeOnly: row.first_time_only,
      });
      return promoView((await repo.setPromoProvider(row.id, provider.name, ids.couponId, ids.promotionCodeId))!);
    },
    async update(id: number, body: PromoUpdate) {
      for (const field of IMMUTABLE) {
        if ((body as Record<string, unknown>)[field] !== undefined) throw invalid(['body', field], `${field} cannot change once a code exists (the provider's coupons are immutable): deactivate this code and create a new one`);
      }
      const before = await repo.promo(id);
      if (!before) throw new AppError('not_found', 'Promo code not found');
      const row = (await repo.updatePromo(id, {
        active: body.active, description: body.description,
        expires_at: body.expires_at === undefined ? undefined : body.expires_at === null ? null : new Date(body.expires_at),
        max_redemptions: body.max_redemptions,
      }))!;
      if (body.active !== undefined && body.active !== before.active && row.provider_promotion_code_id && row.provider === provider.name) {
        await provider.setPromoActive(row.provider_promotion_code_id, body.active);
      }
      return promoView(row);
    },
  };
}

export type PromoService = ReturnType<typeof createPromoService>;
