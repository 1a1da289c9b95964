import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ConfirmButton, Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';

type Insights = components['schemas']['InsightsResponse'];

function toCsv(data: Insights): string {
  const cell = (v: string | number) => {
    const s = String(v);
    // Quote everything; neutralise spreadsheet formulas.
    return `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"`;
  };
  const rows = [['category', 'count', 'last_seen', 'examples'], ...data.categories.map((c) => [c.category, c.count, c.last_seen, c.examples.join(' | ')])];
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

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
  const download = () => {
    const url = URL.createObjectURL(new Blob([toCsv(q.data!)], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `insights-${id}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <>
      <h1>Audience insights</h1>
      <p className="hint">Questions people and agents asked that your profile could not answer, grouped by topic.</p>
      <ErrorBox error={clear.error} />
      <Success>{clear.isSuccess ? `Cleared ${clear.data.deleted} question(s).` : null}</Success>
      {q.isPending ? <Loading /> : q.error ? <ErrorBox error={q.error} /> : q.data.categories.length === 0 ? (
        <Empty>No unanswered questions yet.</Empty>
      ) : (
        <>
          <div className="row" style={{ marginBottom: '1rem' }}>
            <button type="button" className="secondary" onClick={download}>Export CSV</button>
            <ConfirmButton label="Clear all" title="Clear all insights?" body={<p>Every recorded question is removed. This cannot be undone.</p>} danger onConfirm={() => clear.mutate(q.data.categories.map((c) => c.category))} />
            <span className="hint">{q.data.total_queries} questions · kept {q.data.retention_days} days</span>
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
