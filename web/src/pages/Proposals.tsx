import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ConfirmButton, Empty, ErrorBox, Loading, fmtDate, useToast, useTitle } from '../ui';

type Proposal = components['schemas']['ProposalDetail'];
const STATUSES = ['pending', 'approved', 'rejected', 'responded'] as const;

/** Median hours from a proposal to the owner's first answer, over the loaded proposals. */
function responseStats(list: Proposal[]) {
  const hours: number[] = [];
  for (const p of list) {
    const first = p.messages.find((m) => m.author_role === 'company');
    if (first) hours.push((Date.parse(first.created_at) - Date.parse(p.created_at)) / 3_600_000);
  }
  hours.sort((a, b) => a - b);
  const median = hours.length ? hours[Math.floor(hours.length / 2)]! : undefined;
  return { median, rate: list.length ? Math.round((hours.length / list.length) * 100) : undefined };
}

/** "€2,500" in the reader's locale; cents only when the budget has them. */
function fmtBudget(b: NonNullable<Proposal['budget']>): string {
  const digits = Number.isInteger(b.amount) ? 0 : 2;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: b.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(b.amount);
  } catch {
    return `${b.currency} ${b.amount}`;
  }
}

/** A calendar day (YYYY-MM-DD) in the reader's locale: read in UTC, so it is the same day in every time zone. */
const fmtDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'long', timeZone: 'UTC' });

/** area_m2 → "Area m2". */
const detailLabel = (key: string) => {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const detailValue = (v: string | number | boolean) => (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : typeof v === 'number' ? v.toLocaleString() : v);

/** The request's structured fields (budget, date, place, category details), when the agent sent any. */
function RequestFacts({ p }: { p: Proposal }) {
  const rows: [string, string][] = [];
  if (p.budget) rows.push(['Budget', fmtBudget(p.budget)]);
  if (p.needed_by) rows.push(['Needed by', fmtDay(p.needed_by)]);
  if (p.location) rows.push(['Location', p.location]);
  for (const [key, value] of Object.entries(p.details ?? {})) rows.push([detailLabel(key), detailValue(value)]);
  if (rows.length === 0) return null;
  return (
    <dl aria-label="Request details" style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '.25rem 1rem', margin: '.75rem 0' }}>
      {rows.map(([label, value], i) => (
        <Fragment key={i}>
          <dt style={{ fontWeight: 600 }}>{label}</dt>
          <dd style={{ margin: 0 }}>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function Thread({ p, say }: { p: Proposal; say: (msg: string) => void }) {
  const qc = useQueryClient();
  const [message, setMessage] = useState('');
  const done = (text: string) => {
    setMessage('');
    say(text);
    void qc.invalidateQueries({ queryKey: ['proposals'] });
  };
  const respond = useMutation({
    mutationFn: (action: 'approve' | 'reject' | 'respond') =>
      unwrap(api.POST('/api/proposals/{proposal_id}/respond', { params: { path: { proposal_id: p.id } }, body: { action, ...(message.trim() ? { message: message.trim() } : {}) } })),
    onSuccess: (r) => done(`Proposal ${r.status}`),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/proposals/{proposal_id}', { params: { path: { proposal_id: p.id } } })),
    onSuccess: () => done('Proposal deleted. Find it under “Deleted”.'),
  });
  const restore = useMutation({
    mutationFn: () => unwrap(api.POST('/api/proposals/{proposal_id}/restore', { params: { path: { proposal_id: p.id } } })),
    onSuccess: () => done('Proposal restored'),
  });
  return (
    <section className="card" aria-labelledby="thread-h">
      <h2 id="thread-h">{p.customer_name} via {p.agent_name}</h2>
      <p className="hint">{p.company_name} · {p.type} · <span className={`tag ${p.status}`}>{p.status}</span> · {fmtDate(p.created_at)} · {p.customer_email}</p>
      <div className="msg">{p.description}</div>
      <RequestFacts p={p} />
      <h3>Thread</h3>
      <div className="thread" aria-label="Messages">
        {p.messages.length === 0 ? <Empty>No messages yet.</Empty> : p.messages.map((m) => (
          <div key={m.id} className={`msg ${m.author_role === 'company' ? 'owner' : ''}`}>
            <div className="hint">{m.author_role ?? m.kind} · {fmtDate(m.created_at)}</div>
            {m.text || (m.action ? `(${m.action})` : '')}
          </div>
        ))}
      </div>
      {p.is_deleted ? (
        <div className="row" style={{ marginTop: '1rem' }}>
          <button type="button" onClick={() => restore.mutate()} disabled={restore.isPending}>Restore</button>
          <ErrorBox error={restore.error} />
        </div>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); respond.mutate('respond'); }} style={{ marginTop: '1rem' }}>
          <label htmlFor="reply">Your message</label>
          <textarea id="reply" value={message} onChange={(e) => setMessage(e.target.value)} maxLength={5000} />
          <ErrorBox error={respond.error ?? remove.error} />
          <div className="row" style={{ marginTop: '.5rem' }}>
            <button type="submit" disabled={respond.isPending || !message.trim()}>Send reply</button>
            <button type="button" className="secondary" onClick={() => respond.mutate('approve')} disabled={respond.isPending}>Approve</button>
            <button type="button" className="secondary" onClick={() => respond.mutate('reject')} disabled={respond.isPending}>Reject</button>
          </div>
        </form>
      )}
      {p.is_deleted ? null : (
        <div className="row" style={{ marginTop: '.5rem' }}>
          <ConfirmButton label="Delete" title="Delete this proposal?" body={<p>It moves to “Deleted”, where you can restore it.</p>} danger onConfirm={() => remove.mutate()} />
        </div>
      )}
    </section>
  );
}

export default function Proposals() {
  useTitle('Proposals');

  const search = useSearch({ from: '/owner/app/proposals' });
  const navigate = useNavigate({ from: '/app/proposals' });
  const [q, setQ] = useState(search.q ?? '');
  const [toast, say] = useToast();
  const list = useQuery({
    queryKey: ['proposals', 'list', search.status, search.q, search.deleted],
    queryFn: () => unwrap(api.GET('/api/proposals', { params: { query: { limit: 100, ...(search.status ? { status: search.status } : {}), ...(search.q ? { q: search.q } : {}), ...(search.deleted ? { include_deleted: true } : {}) } } })),
  });
  const shown = (list.data?.proposals ?? []).filter((p) => (search.deleted ? p.is_deleted : !p.is_deleted));
  const selected = shown.find((p) => p.id === search.id);
  const stats = responseStats(shown);
  return (
    <>
      {toast}
      <h1>Proposals</h1>
      <form className="row card" role="search" onSubmit={(e) => { e.preventDefault(); void navigate({ search: (s) => ({ ...s, q: q || undefined, id: undefined }) }); }}>
        <div>
          <label htmlFor="status">Status</label>
          <select id="status" value={search.status ?? ''} onChange={(e) => void navigate({ search: (s) => ({ ...s, status: (e.target.value || undefined) as typeof s.status, id: undefined }) })}>
            <option value="">All</option>
            {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </div>
        <div style={{ flex: 1, minWidth: '12rem' }}>
          <label htmlFor="q">Search</label>
          <input id="q" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Customer, agent or text" />
        </div>
        <button type="submit" style={{ alignSelf: 'flex-end' }}>Search</button>
        <label style={{ alignSelf: 'flex-end', fontWeight: 400 }}>
          <input type="checkbox" checked={!!search.deleted} onChange={(e) => void navigate({ search: (s) => ({ ...s, deleted: e.target.checked || undefined, id: undefined }) })} /> Deleted
        </label>
      </form>
      {stats.median !== undefined ? <p className="hint">Median response time {stats.median.toFixed(1)} h · response rate {stats.rate} % (shown proposals)</p> : null}
      {list.isPending ? <Loading what="Loading proposals" /> : list.error ? <ErrorBox error={list.error} /> : shown.length === 0 ? (
        <Empty>{search.deleted ? 'No deleted proposals.' : search.status || search.q ? 'No proposals match these filters.' : 'No proposals yet. Agents send them when your company is verified.'}</Empty>
      ) : (
        <div className="grid2">
          <ul className="list card" aria-label="Proposal list">
            {shown.map((p) => (
              <li key={p.id} className={p.id === search.id ? 'selected' : ''}>
                <button type="button" className="item" aria-current={p.id === search.id ? 'true' : undefined} onClick={() => void navigate({ search: (s) => ({ ...s, id: p.id }) })}>
                  <strong>{p.customer_name}</strong> <span className={`tag ${p.status}`}>{p.status}</span>
                  <div className="hint">{p.company_name} · {p.agent_name} · {fmtDate(p.created_at)}</div>
                  <div>{p.description.slice(0, 120)}</div>
                </button>
              </li>
            ))}
          </ul>
          {selected ? <Thread key={selected.id} p={selected} say={say} /> : <Empty>Choose a proposal to read its thread.</Empty>}
        </div>
      )}
    </>
  );
}
