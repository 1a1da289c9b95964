import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import { ConfirmButton, Empty, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

export default function AdminReindex() {
  useTitle('Reindex (admin)');

  const qc = useQueryClient();
  const run = useQuery({
    queryKey: ['reindex'],
    queryFn: () => unwrap(api.GET('/api/tools/admin/reindex')).catch((e) => {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }),
    refetchInterval: (q) => (q.state.data && ['queued', 'running'].includes(q.state.data.status) ? 2000 : false),
  });
  const start = useMutation({
    mutationFn: () => unwrap(api.POST('/api/tools/admin/reindex')),
    onSuccess: (r) => qc.setQueryData(['reindex'], r),
  });
  const r = run.data;
  const busy = !!r && ['queued', 'running'].includes(r.status);
  const pct = r ? Math.round(r.progress * 100) : 0;
  return (
    <>
      <h1>Reindex</h1>
      <p className="hint">Recomputes every company’s search embedding and keyword index. Search keeps working meanwhile.</p>
      <ConfirmButton label="Start reindex" title="Reindex every company?" body={<p>This runs in the background and may take a few minutes.</p>} disabled={busy || start.isPending} onConfirm={() => start.mutate()} />
      <ErrorBox error={start.error} />
      <section className="card" aria-labelledby="run-h" style={{ marginTop: '1rem' }}>
        <h2 id="run-h">Latest run</h2>
        {run.isPending ? <Loading /> : run.error ? <ErrorBox error={run.error} /> : !r ? <Empty>No reindex has run yet.</Empty> : (
          <>
            <label htmlFor="reindex-progress">Run {r.id}: {r.status} · {r.done} of {r.total} companies</label>
            <progress id="reindex-progress" max={100} value={pct} style={{ width: '100%', height: '1.25rem' }}>{pct} %</progress>
            <p role="status" aria-live="polite">{pct} %{r.status === 'done' ? ' · finished ' + fmtDate(r.finished_at) : ''}</p>
            {r.error ? <p className="error">{r.error}</p> : null}
            <p className="hint">Started by {r.started_by} · {fmtDate(r.started_at ?? r.created_at)}</p>
          </>
        )}
      </section>
    </>
  );
}
