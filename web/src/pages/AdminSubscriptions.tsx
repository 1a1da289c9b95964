import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Empty, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

const PAGE = 50;
const STATUS: Record<string, string> = { active: 'Active', trialing: 'Trial', past_due: 'Payment overdue', canceled: 'Ended' };
const SOURCE: Record<string, string> = { admin: 'Granted by an administrator', local: 'Test payments (nothing charged)', stripe: 'Paid through Stripe' };
const money = (minor: number, currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(minor / 100);

/** Paid plans with their companies: a summary of what they bring, filters in the URL, the plan's state in words. */
export default function AdminSubscriptions() {
  useTitle('Subscriptions');
  const search = useSearch({ from: '/admin/admin/subscriptions' });
  const navigate = useNavigate({ from: '/admin/subscriptions' });
  const [q, setQ] = useState(search.q ?? '');
  const offset = search.page ? (search.page - 1) * PAGE : 0;
  const list = useQuery({
    queryKey: ['admin-subscriptions', search],
    queryFn: () => unwrap(api.GET('/api/payments/admin/subscriptions', { params: { query: { status: search.status, q: search.q, limit: PAGE, offset } } })),
    placeholderData: keepPreviousData,
  });
  const s = list.data?.summary;
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE)) : 1;
  return (
    <>
      <h1>Subscriptions</h1>
      {s ? (
        <p className="card" aria-label="Summary">
          <strong>{money(s.monthly_recurring.amount, s.monthly_recurring.currency)} a month</strong> from paying plans (a yearly plan counts a twelfth, before promotions) ·{' '}
          {s.active} active · {s.trialing} on trial · {s.past_due} with a payment overdue · {s.ending} ending at the period&apos;s end · {s.granted} granted by hand · {s.canceled} ended
        </p>
      ) : null}
      <form className="row card" role="search" onSubmit={(e) => { e.preventDefault(); void navigate({ search: { ...search, q: q.trim() || undefined, page: undefined } }); }}>
        <div style={{ flex: 1, minWidth: '12rem' }}><label htmlFor="sq">Search by company or domain</label><input id="sq" type="search" value={q} onChange={(e) => setQ(e.target.value)} /></div>
        <div><label htmlFor="sstatus">Show</label>
          <select id="sstatus" value={search.status ?? ''} onChange={(e) => void navigate({ search: { ...search, status: (e.target.value || undefined) as typeof search.status, page: undefined } })}>
            <option value="">Every paid plan</option>
            <option value="active">Active</option>
            <option value="trialing">On trial</option>
            <option value="past_due">Payment overdue</option>
            <option value="ending">Ending at the period&apos;s end</option>
            <option value="canceled">Ended</option>
          </select>
        </div>
        <button type="submit" style={{ alignSelf: 'flex-end' }}>Search</button>
      </form>
      {list.isPending ? <Loading what="Loading subscriptions" /> : list.error ? <ErrorBox error={list.error} /> : list.data.subscriptions.length === 0 ? (
        <Empty>{search.status || search.q ? 'No subscription matches.' : 'No paid plans yet.'}</Empty>
      ) : (
        <>
          <p className="hint" role="status">{list.data.total} {list.data.total === 1 ? 'subscription' : 'subscriptions'}</p>
          <table className="responsive">
            <thead><tr><th scope="col">Company</th><th scope="col">Plan</th><th scope="col">State</th><th scope="col">Period</th></tr></thead>
            <tbody>{list.data.subscriptions.map((r) => (
              <tr key={r.company_id}>
                <td><Link to="/admin" search={{ q: r.company_domain }}>{r.company_name}</Link><div className="hint">{r.company_domain}</div></td>
                <td>{r.plan === 'pro' ? 'Pro' : r.plan}{r.interval ? `, ${r.interval === 'year' ? 'yearly' : 'monthly'}` : ''}<div className="hint">{SOURCE[r.source] ?? r.source}{r.note ? ` · ${r.note}` : ''}</div></td>
                <td>
                  {STATUS[r.status] ?? r.status}
                  {r.cancel_at_period_end && r.status !== 'canceled' ? <div className="hint">Cancelled by the owner: runs until the period ends</div> : null}
                  {r.payment_failed_at ? <div className="hint">A payment failed on {fmtDate(r.payment_failed_at)}</div> : null}
                  {r.trial_end && r.status === 'trialing' ? <div className="hint">Trial until {fmtDate(r.trial_end)}</div> : null}
                </td>
                <td>{r.current_period_end ? `${r.status === 'canceled' || r.cancel_at_period_end ? 'Ends' : 'Renews'} ${fmtDate(r.current_period_end)}` : 'No end date'}</td>
              </tr>
            ))}</tbody>
          </table>
          {pages > 1 ? (
            <nav className="row" aria-label="Pages">
              <button type="button" className="secondary" disabled={offset === 0} onClick={() => void navigate({ search: { ...search, page: (search.page ?? 1) - 1 } })}>Previous page</button>
              <span>Page {search.page ?? 1} of {pages}</span>
              <button type="button" className="secondary" disabled={(search.page ?? 1) >= pages} onClick={() => void navigate({ search: { ...search, page: (search.page ?? 1) + 1 } })}>Next page</button>
            </nav>
          ) : null}
        </>
      )}
    </>
  );
}
