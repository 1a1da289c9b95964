import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useEffect, useRef, useState } from 'react';
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

/** What a company's answer without words did, for people ("(reject)" is not a sentence). */
const ACTION_WORDS: Record<string, string> = { approve: 'Approved the proposal.', reject: 'Declined the proposal.', respond: 'Answered.' };
const STATUS_WORDS: Record<string, string> = {
  approved: 'You approved this proposal. If the agent replies, it comes back to you as pending.',
  rejected: 'You declined this proposal. If the agent replies, it comes back to you as pending.',
};

/** A person asked on the company page or in the chat widget: answers go to them by email, and there is no agent. */
const fromPerson = (p: Proposal) => p.origin !== 'agent';

/** Where a request came from, as the inbox names it. */
function senderOf(p: Proposal): string {
  if (p.origin === 'quote_form') return 'your company page';
  if (p.origin === 'widget') return 'your chat widget';
  return p.agent_name;
}

/** Who hears about the owner's answer, for the sentences after an action. */
function toldWho(p: Proposal): string {
  return fromPerson(p) ? `${p.customer_name} gets it by email` : 'The agent is told';
}

function Thread({ p, say, onBack }: { p: Proposal; say: (msg: string) => void; onBack: () => void }) {
  const qc = useQueryClient();
  const [message, setMessage] = useState('');
  const [reason, setReason] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening a thread moves the reader to it: on a phone it replaces the list, and the focus follows.
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'start' });
  }, [p.id]);
  const done = (text: string) => {
    setMessage('');
    setReason('');
    say(text);
    void qc.invalidateQueries({ queryKey: ['proposals'] });
  };
  const respond = useMutation({
    mutationFn: ({ action, text }: { action: 'approve' | 'reject' | 'respond'; text: string }) =>
      unwrap(api.POST('/api/proposals/{proposal_id}/respond', { params: { path: { proposal_id: p.id } }, body: { action, ...(text.trim() ? { message: text.trim() } : {}) } })),
    onSuccess: (r) => done(`${r.status === 'approved' ? 'Approved' : r.status === 'rejected' ? 'Declined' : 'Reply sent'}. ${toldWho(p)}.`),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/proposals/{proposal_id}', { params: { path: { proposal_id: p.id } } })),
    onSuccess: () => done('Proposal deleted. Find it under “Deleted”.'),
  });
  const restore = useMutation({
    mutationFn: () => unwrap(api.POST('/api/proposals/{proposal_id}/restore', { params: { path: { proposal_id: p.id } } })),
    onSuccess: () => done('Proposal restored'),
  });
  const [reportReason, setReportReason] = useState<'spam' | 'abuse' | 'other'>('spam');
  const [reportNote, setReportNote] = useState('');
  const [blockToo, setBlockToo] = useState(true);
  const report = useMutation({
    mutationFn: () => unwrap(api.POST('/api/proposals/{proposal_id}/report', { params: { path: { proposal_id: p.id } }, body: { reason: reportReason, block: blockToo, ...(reportNote.trim() ? { note: reportNote.trim() } : {}) } })),
    onSuccess: (r) => say(r.message),
  });
  const unblock = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/proposals/{proposal_id}/block', { params: { path: { proposal_id: p.id } } })),
    onSuccess: (r) => { report.reset(); say(r.message); },
  });
  const decided = p.status === 'approved' || p.status === 'rejected';
  return (
    <section className="card thread-pane" aria-labelledby="thread-h">
      <button type="button" className="secondary back" onClick={onBack}>← All proposals</button>
      <h2 id="thread-h" ref={heading} tabIndex={-1}>{p.customer_name} via {senderOf(p)}</h2>
      <p className="hint">{p.company_name} · {p.type} · <span className={`tag ${p.status}`}>{p.status}</span> · {fmtDate(p.created_at)} · {p.customer_email}</p>
      <div className="msg">{p.description}</div>
      <RequestFacts p={p} />
      <h3>Thread</h3>
      <div className="thread" aria-label="Messages">
        {p.messages.length === 0 ? <Empty>No messages yet.</Empty> : p.messages.map((m) => (
          <div key={m.id} className={`msg ${m.author_role === 'company' ? 'owner' : ''}`}>
            <div className="hint">{m.author_role === 'company' ? 'You' : fromPerson(p) ? p.customer_name : `Agent ${p.agent_name}`} · {fmtDate(m.created_at)}</div>
            {m.text || (m.action ? ACTION_WORDS[m.action] : '')}
          </div>
        ))}
      </div>
      {p.is_deleted ? (
        <div className="row" style={{ marginTop: '1rem' }}>
          <button type="button" onClick={() => restore.mutate()} disabled={restore.isPending}>Restore</button>
          <ErrorBox error={restore.error} />
        </div>
      ) : decided ? (
        <p className="alert info" role="status">{fromPerson(p) ? `You ${p.status === 'approved' ? 'accepted' : 'declined'} this request and ${p.customer_name} was emailed. They answer you by email.` : STATUS_WORDS[p.status]}</p>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); respond.mutate({ action: 'respond', text: message }); }} style={{ marginTop: '1rem' }}>
          <label htmlFor="reply">Your message</label>
          <textarea id="reply" value={message} onChange={(e) => setMessage(e.target.value)} maxLength={5000} />
          <ErrorBox error={respond.error ?? remove.error} />
          <div className="row" style={{ marginTop: '.5rem' }}>
            <button type="submit" disabled={respond.isPending || !message.trim()}>Send reply</button>
          </div>
        </form>
      )}
      {p.is_deleted || decided ? null : (
        // Outside the reply form: each dialog holds a form of its own, and forms do not nest.
        <div className="row" style={{ marginTop: '.5rem' }}>
          <ConfirmButton
            label="Approve"
            title="Approve this proposal?"
            body={<p>{fromPerson(p) ? `${p.customer_name} is emailed that you accept.` : 'The agent is told that you accept.'} {message.trim() ? 'Your message above goes with it.' : 'You can write a message above first.'}</p>}
            confirmLabel="Yes, approve"
            disabled={respond.isPending}
            onConfirm={() => respond.mutate({ action: 'approve', text: message })}
          />
          <ConfirmButton
            label="Decline"
            title="Decline this proposal?"
            body={(
              <>
                <p>{fromPerson(p) ? `${p.customer_name} is emailed that you decline. A short reason helps them look elsewhere.` : 'The agent is told that you decline. A short reason helps it find the customer someone else.'}</p>
                <label htmlFor={`reason-${p.id}`}>Reason (optional)</label>
                <textarea id={`reason-${p.id}`} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={5000} placeholder="For example: we do not work in that area." />
              </>
            )}
            confirmLabel="Yes, decline"
            danger
            disabled={respond.isPending}
            onConfirm={() => respond.mutate({ action: 'reject', text: reason || message })}
          />
        </div>
      )}
      {p.is_deleted ? null : (
        <div className="row" style={{ marginTop: '.5rem' }}>
          <ConfirmButton label="Delete" title="Delete this proposal?" body={<p>It moves to “Deleted”, where you can restore it.</p>} danger onConfirm={() => remove.mutate()} />
          {fromPerson(p) ? null : report.data?.blocked ? (
            <button type="button" className="secondary" onClick={() => unblock.mutate()} disabled={unblock.isPending}>Unblock {p.agent_name}</button>
          ) : (
            <ConfirmButton
              label="Report agent"
              title={`Report ${p.agent_name}?`}
              body={(
                <>
                  <p>Administrators review reports of agents that send spam or abuse.</p>
                  <label htmlFor={`report-reason-${p.id}`}>What is wrong</label>
                  <select id={`report-reason-${p.id}`} value={reportReason} onChange={(e) => setReportReason(e.target.value as typeof reportReason)}>
                    <option value="spam">Spam or a sales pitch</option>
                    <option value="abuse">Abusive or fraudulent</option>
                    <option value="other">Something else</option>
                  </select>
                  <label htmlFor={`report-note-${p.id}`}>Details (optional)</label>
                  <textarea id={`report-note-${p.id}`} value={reportNote} onChange={(e) => setReportNote(e.target.value)} maxLength={2000} />
                  <label className="check"><input type="checkbox" checked={blockToo} onChange={(e) => setBlockToo(e.target.checked)} /> Block {p.agent_name}: no more proposals or replies from it</label>
                </>
              )}
              confirmLabel="Send report"
              danger
              disabled={report.isPending}
              onConfirm={() => report.mutate()}
            />
          )}
          <ErrorBox error={report.error ?? unblock.error} />
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
        <div className={`grid2 inbox${selected ? ' has-selection' : ''}`}>
          <ul className="list card" aria-label="Proposal list">
            {shown.map((p) => (
              <li key={p.id} className={p.id === search.id ? 'selected' : ''}>
                <button type="button" className="item" aria-current={p.id === search.id ? 'true' : undefined} onClick={() => void navigate({ search: (s) => ({ ...s, id: p.id }) })}>
                  <strong>{p.customer_name}</strong> <span className={`tag ${p.status}`}>{p.status}</span>
                  <div className="hint">{p.company_name} · {senderOf(p)} · {fmtDate(p.created_at)}</div>
                  <div>{p.description.slice(0, 120)}</div>
                </button>
              </li>
            ))}
          </ul>
          {selected ? (
            <Thread key={selected.id} p={selected} say={say} onBack={() => void navigate({ search: (s) => ({ ...s, id: undefined }) })} />
          ) : <div className="thread-pane"><Empty>Choose a proposal to read its thread.</Empty></div>}
        </div>
      )}
    </>
  );
}
