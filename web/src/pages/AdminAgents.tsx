import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { ConfirmButton, Empty, ErrorBox, Loading, fmtDate, useToast, useTitle } from '../ui';

function AgentProposals({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['agent-proposals', id], queryFn: () => unwrap(api.GET('/api/tools/admin/agents/{agent_id}/proposals', { params: { path: { agent_id: id }, query: { limit: 50, include_deleted: true } } })) });
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorBox error={q.error} />;
  if (q.data.proposals.length === 0) return <Empty>No proposals from this agent.</Empty>;
  return (
    <ul>{q.data.proposals.map((p) => (
      <li key={p.id}><span className={`tag ${p.status}`}>{p.status}</span> {p.company_name}: {p.description.slice(0, 100)} <span className="hint">{fmtDate(p.created_at)}{p.is_deleted ? ' · deleted' : ''}</span></li>
    ))}</ul>
  );
}

export default function AdminAgents() {
  useTitle('Agents (admin)');

  const [open, setOpen] = useState<string | null>(null);
  const search = useSearch({ from: '/admin/admin/agents' });
  const navigate = useNavigate({ from: '/admin/agents' });
  const [q, setQ] = useState(search.q ?? '');
  const qc = useQueryClient();
  const [toast, say] = useToast();
  const list = useQuery({ queryKey: ['admin-agents', search.q], queryFn: () => unwrap(api.GET('/api/tools/admin/agents', { params: { query: { limit: 100, ...(search.q ? { q: search.q } : {}) } } })) });
  const act = useMutation({
    mutationFn: async ({ id, active }: { id: string; name: string; active: boolean }) =>
      unwrap(active ? api.POST('/api/tools/admin/agents/{agent_id}/reactivate', { params: { path: { agent_id: id } } }) : api.POST('/api/tools/admin/agents/{agent_id}/deactivate', { params: { path: { agent_id: id } } })),
    onSuccess: (a) => { say(`${a.name} ${a.is_active ? 'reactivated' : 'deactivated'}`); void qc.invalidateQueries({ queryKey: ['admin-agents'] }); },
  });
  return (
    <>
      {toast}
      <h1>Agents</h1>
      <form className="row card" role="search" onSubmit={(e) => { e.preventDefault(); void navigate({ search: { q: q || undefined } }); }}>
        <div style={{ flex: 1, minWidth: '12rem' }}><label htmlFor="aq">Search by name or owner email</label><input id="aq" type="search" value={q} onChange={(e) => setQ(e.target.value)} /></div>
        <button type="submit" style={{ alignSelf: 'flex-end' }}>Search</button>
      </form>
      <ErrorBox error={act.error} />
      {list.isPending ? <Loading /> : list.error ? <ErrorBox error={list.error} /> : list.data.agents.length === 0 ? <Empty>No agents match.</Empty> : (
        <table className="responsive">
          <thead><tr><th scope="col">Agent</th><th scope="col">Proposals</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
          <tbody>{list.data.agents.map((a) => (
            <tr key={a.id}>
              <td>
                <strong>{a.name}</strong>
                {a.reports > 0 ? <> <span className="tag failed">Reported {a.reports === 1 ? 'once' : `${a.reports} times`}{a.blocked_by ? ` · blocked by ${a.blocked_by} ${a.blocked_by === 1 ? 'company' : 'companies'}` : ''}</span></> : null}
                <div className="hint">{a.owner_email} · since {fmtDate(a.created_at)}</div>
              </td>
              <td>
                <button type="button" className="secondary" aria-expanded={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>{a.proposal_counts.total} ({a.proposal_counts.pending} pending)<span className="skip"> proposals of {a.name}</span></button>
                {open === a.id ? <AgentProposals id={a.id} /> : null}
              </td>
              <td>{a.is_active ? <span className="tag approved">active</span> : <span className="tag rejected">deactivated</span>}</td>
              <td>{a.is_active ? (
                <ConfirmButton label={`Deactivate`} title={`Deactivate ${a.name}?`} danger body={<p>Its API key stops working at once. You can reactivate it later.</p>} onConfirm={() => act.mutate({ id: a.id, name: a.name, active: false })} />
              ) : (
                <button type="button" className="secondary" onClick={() => act.mutate({ id: a.id, name: a.name, active: true })}>Reactivate<span className="skip"> {a.name}</span></button>
              )}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
    </>
  );
}
