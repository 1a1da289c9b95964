import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ConfirmButton, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

const money = (amount: number, currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

/** Why a promo code cannot be used, for people (the API gives a code). */
const PROMO_REASONS: Record<string, string> = {
  not_found: 'there is no such code',
  inactive: 'the code is switched off',
  expired: 'the code has expired',
  exhausted: 'the code has been used as often as it may be',
  not_applicable: 'the code does not apply to this plan or billing period',
  first_time_only: 'the code is for a company’s first subscription only',
};

type Discount = NonNullable<components['schemas']['PromoValidateResponse']['discount']>;

/** How long a discount lasts, in words (Stripe's coupon durations). */
function discountSpan(d: Discount): string {
  if (d.duration === 'forever') return 'on every payment';
  if (d.duration === 'repeating' && d.duration_in_months) return `for the first ${d.duration_in_months} months`;
  return 'on the first payment only';
}

const LIMIT_ROWS: { key: keyof components['schemas']['BillingState']['plans'][number]['limits']; label: string }[] = [
  { key: 'scans_per_month', label: 'Agent-readiness scans per month' },
  { key: 'scheduled_rescans', label: 'Scheduled re-scans' },
  { key: 'insights_history_days', label: 'Questions history (days)' },
  { key: 'insights_csv_export', label: 'Questions export (CSV)' },
  { key: 'widget_unbranded', label: 'Chat widget without our branding' },
  { key: 'featuring_eligible', label: 'Can be featured in the directory' },
];
const showLimit = (v: boolean | number) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v));

const LANDING: Record<string, string> = {
  success: 'Thank you: your payment went through. The plan below updates as soon as the payment provider confirms it.',
  canceled: 'The checkout was abandoned: nothing was charged.',
  portal_local: 'This installation bills offline (no payment provider configured): there is no card or invoice portal to manage.',
  unknown: 'We could not find that checkout for your account (sign in with the account that started it). If you paid, the plan below updates within a minute.',
};

/** Plan, status, period end, invoices; upgrade (with a promo code), the provider's portal, cancel at period end. */
export default function Billing() {
  useTitle('Billing');
  const search = useSearch({ from: '/owner/app/billing' });
  const navigate = useNavigate();
  const qc = useQueryClient();
  const tools = useQuery({ queryKey: ['my-tools'], queryFn: () => unwrap(api.GET('/api/tools/my-tools')) });
  const toolId = search.tool_id ?? tools.data?.[0]?.id;
  const state = useQuery({
    queryKey: ['billing', toolId],
    enabled: !!toolId,
    queryFn: () => unwrap(api.GET('/api/payments/me', { params: { query: { tool_id: toolId! } } })),
    // Right after checkout the provider's confirmation may still be on its way.
    refetchInterval: search.status === 'success' ? 3000 : false,
  });
  const [interval, setInterval] = useState<'month' | 'year'>('month');
  const [promo, setPromo] = useState('');
  const validate = useMutation({ mutationFn: () => unwrap(api.POST('/api/payments/promo/validate', { body: { code: promo.trim(), plan: 'pro', interval, ...(toolId ? { tool_id: toolId } : {}) } })) });
  const checkout = useMutation({
    mutationFn: () => unwrap(api.POST('/api/payments/create-checkout', { body: { tool_id: toolId!, plan: 'pro', interval, ...(validate.data?.valid ? { promo_code: validate.data.code } : {}) } })),
    onSuccess: (r) => window.location.assign(r.url),
  });
  const portal = useMutation({ mutationFn: () => unwrap(api.POST('/api/payments/billing-portal', { body: { tool_id: toolId! } })), onSuccess: (r) => window.location.assign(r.url) });
  const resume = useMutation({
    mutationFn: () => unwrap(api.POST('/api/payments/resume-subscription', { body: { tool_id: toolId! } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['billing', toolId] }),
  });
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/api/payments/cancel-subscription', { body: { tool_id: toolId! } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['billing', toolId] }),
  });

  const b = state.data;
  const pro = b?.plans.filter((p) => p.id === 'pro') ?? [];
  const free = b?.plans.find((p) => p.id === 'free');
  const monthly = pro.find((p) => p.interval === 'month');
  const yearly = pro.find((p) => p.interval === 'year');
  const saving = monthly && yearly && yearly.currency === monthly.currency ? monthly.amount * 12 - yearly.amount : 0;
  return (
    <>
      <h1>Billing{tools.data && toolId ? <>: {tools.data.find((t) => t.id === toolId)?.name}</> : null}</h1>
      {search.status && LANDING[search.status] ? <p role="status" className={`alert ${search.status === 'success' ? 'ok' : ''}`}>{LANDING[search.status]}</p> : null}
      {tools.data && tools.data.length > 1 ? (
        <p>
          <label htmlFor="company">Company</label>
          <select id="company" value={toolId} onChange={(e) => void navigate({ to: '/app/billing', search: { tool_id: e.target.value } })}>
            {tools.data.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </p>
      ) : null}
      {tools.isPending || (toolId && state.isPending) ? <Loading /> : tools.error ? <ErrorBox error={tools.error} /> : !toolId ? (
        <p>Add your company first (My companies); billing is per company.</p>
      ) : state.error ? <ErrorBox error={state.error} /> : b ? (
        <>
          {b.test_mode ? (
            <p role="note" className="alert">
              Payments are in test mode on this server: nothing is charged, and a plan bought here is for trying the service only.
            </p>
          ) : null}
          <section className="card" aria-labelledby="plan-h">
            <h2 id="plan-h">Plan: {b.effective_plan}</h2>
            <p>
              Status <span className={`tag ${b.entitled ? 'approved' : ''}`}>{b.status}</span>
              {b.current_period_end ? <> · {b.cancel_at_period_end ? 'ends' : 'renews'} {fmtDate(b.current_period_end)}</> : null}
              {b.source === 'admin' ? <> · set by an administrator</> : null}
            </p>
            {b.payment_failed_at ? <p className="error">The last payment failed ({fmtDate(b.payment_failed_at)}): update your card in the billing portal to keep the plan.</p> : null}
            <p className="hint">
              Scans per month: {b.limits.scans_per_month} · scheduled re-scans: {b.limits.scheduled_rescans ? 'yes' : 'no'} · insights history: {b.limits.insights_history_days} days
            </p>
            <div className="row">
              {b.has_billing_account ? <button type="button" className="secondary" onClick={() => portal.mutate()} disabled={portal.isPending}>Payment details and invoices</button> : null}
              {b.entitled && b.source !== 'admin' && !b.cancel_at_period_end ? (
                <ConfirmButton label="Cancel subscription" title="Cancel the pro plan?" body={<p>The plan stays active until the end of the period you paid for, then the company returns to free.</p>} confirmLabel="Yes, end it at the period's end" cancelLabel="Keep my plan" danger onConfirm={() => cancel.mutate()} />
              ) : null}
              {b.entitled && b.source !== 'admin' && b.cancel_at_period_end ? (
                <button type="button" onClick={() => resume.mutate()} disabled={resume.isPending}>Keep my pro plan</button>
              ) : null}
            </div>
            {b.entitled && b.cancel_at_period_end && b.current_period_end ? <p className="hint">You cancelled: the plan ends on {fmtDate(b.current_period_end)}. Changed your mind? “Keep my pro plan” renews it as before.</p> : null}
            <ErrorBox error={portal.error ?? cancel.error ?? resume.error} />
          </section>
          {!b.entitled && !b.can_subscribe ? (
            <section className="card" aria-labelledby="up-h">
              <h2 id="up-h">Upgrade to pro</h2>
              <p>Paid plans cannot be bought on this server: payments are switched off. Please contact the people who run this service.</p>
            </section>
          ) : null}
          {!b.entitled && b.can_subscribe ? (
            <section className="card" aria-labelledby="up-h">
              <h2 id="up-h">Upgrade to pro</h2>
              {free && monthly ? (
                <table>
                  <caption className="hint" style={{ textAlign: 'left' }}>What each plan includes</caption>
                  <thead><tr><th scope="col">Feature</th><th scope="col">Free</th><th scope="col">Pro</th></tr></thead>
                  <tbody>{LIMIT_ROWS.map((r) => (
                    <tr key={r.key}><th scope="row" style={{ fontWeight: 400 }}>{r.label}</th><td>{showLimit(free.limits[r.key])}</td><td>{showLimit(monthly.limits[r.key])}</td></tr>
                  ))}</tbody>
                </table>
              ) : null}
              <fieldset>
                <legend>Billing period</legend>
                {pro.map((p) => (
                  <label key={p.interval} className="check">
                    <input type="radio" name="interval" value={p.interval ?? 'month'} checked={interval === p.interval} onChange={() => { setInterval(p.interval === 'year' ? 'year' : 'month'); validate.reset(); }} />
                    <span>
                      {money(p.amount, p.currency)} per {p.interval}
                      {p.interval === 'year' && saving > 0 ? <> · <strong>save {money(saving, p.currency)}</strong> a year against paying monthly</> : null}
                    </span>
                  </label>
                ))}
              </fieldset>
              <form onSubmit={(e) => { e.preventDefault(); if (promo.trim()) validate.mutate(); }}>
                <label htmlFor="promo">Promo code (optional)</label>
                <div className="row">
                  <input id="promo" value={promo} onChange={(e) => { setPromo(e.target.value); validate.reset(); }} autoComplete="off" />
                  <button type="submit" className="secondary" disabled={!promo.trim() || validate.isPending}>Check code</button>
                </div>
              </form>
              {validate.data ? (
                <p role="status" className={validate.data.valid ? 'alert ok' : 'error'}>
                  {validate.data.valid && validate.data.price
                    ? `Code ${validate.data.code}: ${money(validate.data.price.amount_discounted, validate.data.price.currency)} instead of ${money(validate.data.price.amount, validate.data.price.currency)}${validate.data.discount ? `, ${discountSpan(validate.data.discount)}` : ''}.`
                    : `This code cannot be used: ${PROMO_REASONS[validate.data.reason ?? 'not_found'] ?? 'it is not valid'}.`}
                </p>
              ) : null}
              <ErrorBox error={validate.error ?? checkout.error} />
              <div style={{ marginTop: '.75rem' }}><button type="button" onClick={() => checkout.mutate()} disabled={checkout.isPending}>{b.test_mode ? 'Continue to the test payment' : 'Continue to payment'}</button></div>
            </section>
          ) : null}
          <section className="card" aria-labelledby="inv-h">
            <h2 id="inv-h">Invoices</h2>
            {b.invoices.length === 0 ? <p className="hint">No invoices yet.</p> : (
              <table className="responsive">
                <thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Invoice</th></tr></thead>
                <tbody>{b.invoices.map((i) => (
                  <tr key={i.id}><td>{fmtDate(i.created)}</td><td>{money(i.amount_paid, i.currency)}</td><td>{i.status}</td><td>{i.hosted_invoice_url ? <a href={i.hosted_invoice_url}>{i.number ?? 'View'}</a> : '—'}</td></tr>
                ))}</tbody>
              </table>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
