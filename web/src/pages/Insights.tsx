import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CompanyTabs } from './CompanyTabs';
import { Link, useParams } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { ConfirmButton, Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';

export default function InsightsPage() {
  useTitle('Audience insights');

  const { id } = useParams({ from: '/owner/app/companies/$id/insights' });
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['insights', id], queryFn: () => unwrap(api.GET('/api/tools/{tool_id}/insights', { params: { path: { tool_id: id } } })) });
  const clear = useMutation({
    mutationFn: async (categories: string[]) => {
      let deleted = 0;
      for (const category of categories) deleted += (await unwrap(api.DELETE('/api/tools/{tool_id}/insights', { params: { path: { tool_id: id }, query: { category } } }))).deleted;
      return { deleted };
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['insights', id] }),
  });
  // Every question of the plan's window, from the server (a pro feature: a free plan gets the API's 402 detail).
  const download = useMutation({
    mutationFn: async () => {
      const csv = await unwrap(api.GET('/api/tools/{tool_id}/insights/export.csv', { params: { path: { tool_id: id } }, parseAs: 'text' }));
      const url = URL.createObjectURL(new Blob([csv as string], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `insights-${id}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  });
  return (
    <>
      <CompanyTabs id={id} />
      <h1>Audience insights</h1>
      <p className="hint">Questions people and agents asked that your profile could not answer, grouped by topic.</p>
      <ErrorBox error={clear.error} />
      {download.error ? (
        <div>
          <ErrorBox error={download.error} />
          <p><Link to="/app/billing">Upgrade under Billing</Link></p>
        </div>
      ) : null}
      <Success>{clear.isSuccess ? `Cleared ${clear.data.deleted} question(s).` : null}</Success>
      {q.isPending ? <Loading /> : q.error ? <ErrorBox error={q.error} /> : q.data.categories.length === 0 ? (
        <Empty>No unanswered questions yet.</Empty>
      ) : (
        <>
          <div className="row" style={{ marginBottom: '1rem' }}>
            <button type="button" className="secondary" disabled={download.isPending} onClick={() => download.mutate()}>Export CSV</button>
            <ConfirmButton label="Clear all" title="Clear all insights?" body={<p>Every recorded question is removed. This cannot be undone.</p>} danger onConfirm={() => clear.mutate(q.data.categories.map((c) => c.category))} />
            <span className="hint">{q.data.total_queries} questions in the last {q.data.history_days} days ({q.data.plan} plan) · kept {q.data.retention_days} days</span>
          </div>
          {q.data.categories.map((c) => (
            <section key={c.category} className="card" aria-labelledby={`cat-${c.category}`}>
              <h2 id={`cat-${c.category}`}>{c.category} <span className="tag">{c.count}</span></h2>
              <p className="hint">Last asked {fmtDate(c.last_seen)}</p>
              <ul>{c.examples.map((e, i) => <li key={i}>{e}</li>)}</ul>
              <div className="row">
                <Link className="button" to="/app/companies/$id/profile" params={{ id }} search={{ instruction: `Add to the profile the answer to: ${c.examples[0] ?? c.category}` }}>Answer this</Link>
                <button type="button" className="secondary" onClick={() => clear.mutate([c.category])}>Clear {c.category}</button>
              </div>
            </section>
          ))}
        </>
      )}
    </>
  );
}
