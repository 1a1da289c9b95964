import { iso, type PaymentsCtx } from './payments.context.js';

type Filter = { status?: string | undefined; q?: string | undefined; limit?: number | undefined; offset?: number | undefined };

/**
 * The administrators' subscriptions view: every paid plan with its company, filtered by status, and a summary
 * over all of them. What the paying plans bring per month counts plans charged through a provider (a yearly plan
 * a twelfth of its price) at the configured prices, before promotions; plans granted by hand bring nothing.
 */
export async function adminSubscriptions(ctx: PaymentsCtx, f: Filter) {
  const limit = f.limit ?? 50;
  const offset = f.offset ?? 0;
  const { proAmounts, currency } = ctx.deps.config.payments;
  const [page, counts] = await Promise.all([ctx.repo.listSubscriptions({ status: f.status, q: f.q?.trim() || undefined, limit, offset }), ctx.repo.subscriptionCounts()]);
  const summary = { active: 0, trialing: 0, past_due: 0, canceled: 0, ending: 0, granted: 0, monthly_recurring: { amount: 0, currency } };
  let monthly = 0;
  for (const c of counts) {
    if (c.status in summary) summary[c.status as 'active' | 'trialing' | 'past_due' | 'canceled'] += c.n;
    if (c.ending && c.status !== 'canceled') summary.ending += c.n;
    if (c.source === 'admin') {
      if (c.status !== 'canceled') summary.granted += c.n;
      continue;
    }
    // Paying: active, or past due (still owed); a trial pays nothing yet, a cancelled plan no more.
    if (c.status === 'active' || c.status === 'past_due') monthly += c.n * (c.billing_interval === 'year' ? proAmounts.year / 12 : proAmounts.month);
  }
  summary.monthly_recurring.amount = Math.round(monthly);
  return {
    subscriptions: page.rows.map((r) => ({
      company_id: r.company_id, company_name: r.company_name, company_domain: r.company_domain,
      // A plan set by hand has no billing interval, whatever the provider's plan it replaced had.
      plan: r.plan, status: r.status, interval: r.source === 'admin' ? null : r.billing_interval, source: r.source,
      current_period_end: iso(r.period_end), cancel_at_period_end: r.cancel_at_period_end,
      payment_failed_at: iso(r.payment_failed_at), trial_end: iso(r.trial_end), note: r.note, updated_at: iso(r.updated_at)!,
    })),
    total: page.total, limit, offset, summary,
  };
}
