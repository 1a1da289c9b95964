import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { ConfirmButton, Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';

const REASON: Record<string, string> = { spam: 'spam', abuse: 'abuse', other: 'something else' };

/** Reported agents: owners' reports of agents, oldest first; an administrator dismisses a report or deactivates the agent. */
export default function AdminAgentReports() {
  useTitle('Reported agents');
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['admin-agent-reports'], queryFn: () => unwrap(api.GET('/api/tools/admin/agents/reports')) });
  const resolve = useMutation({
    mutationFn: (v: { id: string; decision: 'dismiss' | 'deactivate_agent' }) =>
      unwrap(api.POST('/api/tools/admin/agents/reports/{report_id}/resolve', { params: { path: { report_id: v.id } }, body: { decision: v.decision } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin-agent-reports'] });
      void qc.invalidateQueries({ queryKey: ['admin-agents'] });
    },
  });
  const done = resolve.isSuccess && resolve.data
    ? resolve.variables?.decision === 'deactivate_agent'
      ? `${resolve.data.agent.name} is deactivated: its key is refused. ${resolve.data.resolved} ${resolve.data.resolved === 1 ? 'report' : 'reports'} closed.`
      : 'The report is dismissed. The agent can still write to companies that have not blocked it.'
    : null;
  return (
    <>
      <h1>Reported agents</h1>
      <p className="hint">Owners report agents that send spam or abuse (most also block them from their company). Dismiss a report that does not hold up, or deactivate the agent: its key stops working everywhere and its developer is told by webhook.</p>
      <ErrorBox error={resolve.error} />
      <Success>{done}</Success>
      {q.isPending ? <Loading /> : q.error ? <ErrorBox error={q.error} /> : q.data.reports.length === 0 ? <Empty>No open reports. Nothing to look at.</Empty> : (
        <ul aria-label="Open reports" style={{ padding: 0 }}>
          {q.data.reports.map((r) => (
            <li key={r.id} className="card" style={{ listStyle: 'none' }}>
              <h2 style={{ fontSize: '1.05rem' }}>{r.agent_name}: reported by {r.company_name} for {REASON[r.reason] ?? r.reason}</h2>
              <p className="hint">
                {fmtDate(r.created_at)} · {r.open_reports_of_agent} open {r.open_reports_of_agent === 1 ? 'report' : 'reports'} of this agent · blocked by {r.blocked_by} {r.blocked_by === 1 ? 'company' : 'companies'}
                {r.agent_active ? '' : ' · already deactivated'}
              </p>
              {r.note ? <p><strong>The owner wrote:</strong> {r.note}</p> : null}
              {r.proposal_text ? <><p><strong>What the agent sent:</strong></p><blockquote style={{ margin: '.25rem 0 .5rem', paddingLeft: '.75rem', borderLeft: '3px solid var(--border)' }}>{r.proposal_text}</blockquote></> : null}
              <div className="row" style={{ gap: '.5rem' }}>
                <button type="button" className="secondary" disabled={resolve.isPending} onClick={() => resolve.mutate({ id: r.id, decision: 'dismiss' })}>Dismiss<span className="skip"> the report on {r.agent_name} by {r.company_name}</span></button>
                {r.agent_active ? (
                  <ConfirmButton label={`Deactivate ${r.agent_name}`} danger title={`Deactivate ${r.agent_name}?`}
                    body={<p>Its API key is refused at once for every company, and its developer hears it by webhook. Its {r.open_reports_of_agent} open {r.open_reports_of_agent === 1 ? 'report closes' : 'reports close'}. You can reactivate it from the agents list.</p>}
                    confirmLabel="Deactivate the agent" onConfirm={() => resolve.mutate({ id: r.id, decision: 'deactivate_agent' })} />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
