import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';
import { Empty, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

const WINDOWS = [[1, '1 hour'], [24, '24 hours'], [168, '7 days']] as const;

function Timeline({ id }: { id: string }) {
  const job = useQuery({ queryKey: ['crawl-job', id], queryFn: () => unwrap(api.GET('/api/crawl/admin/recent/{job_id}', { params: { path: { job_id: Number(id) } } })) });
  if (job.isPending) return <Loading what="Loading the job" />;
  if (job.error) return <ErrorBox error={job.error} />;
  return (
    <section className="card" aria-labelledby="job-h">
      <h2 id="job-h">Job {job.data.job.id}: {job.data.job.url}</h2>
      <p className="hint"><span className={`tag ${job.data.job.status}`}>{job.data.job.status}</span> · requested by {job.data.requested_by}</p>
      {job.data.raw_error ? <p className="error">{job.data.error_kind}: {job.data.raw_error}</p> : null}
      {job.data.events.length === 0 ? <Empty>No events.</Empty> : (
        <ol aria-label="Event timeline">{job.data.events.map((e, i) => <li key={i}><strong>{e.stage}</strong> · {fmtDate(e.at)}: {e.message}</li>)}</ol>
      )}
    </section>
  );
}

export default function AdminCrawl() {
  useTitle('Crawl monitor (admin)');

  const search = useSearch({ from: '/admin/admin/crawl' });
  const navigate = useNavigate({ from: '/admin/crawl' });
  const hours = search.hours ?? 24;
  const stats = useQuery({ queryKey: ['crawl-stats', hours], queryFn: () => unwrap(api.GET('/api/crawl/admin/stats', { params: { query: { hours } } })) });
  const recent = useQuery({ queryKey: ['crawl-recent'], queryFn: () => unwrap(api.GET('/api/crawl/admin/recent', { params: { query: { limit: 50 } } })), refetchInterval: 10_000 });
  const s = stats.data;
  const max = s ? Math.max(1, ...Object.values(s.by_status)) : 1;
  return (
    <>
      <h1>Crawl monitor</h1>
      <div className="row" role="group" aria-label="Time window">
        {WINDOWS.map(([h, label]) => (
          <button key={h} type="button" className={h === hours ? '' : 'secondary'} aria-pressed={h === hours} onClick={() => void navigate({ search: (x) => ({ ...x, hours: h }) })}>{label}</button>
        ))}
      </div>
      <section className="card" aria-labelledby="stats-h" style={{ marginTop: '1rem' }}>
        <h2 id="stats-h">Last {WINDOWS.find(([h]) => h === hours)?.[1]}</h2>
        {stats.isPending ? <Loading /> : stats.error ? <ErrorBox error={stats.error} /> : s!.total === 0 ? <Empty>No crawls in this window.</Empty> : (
          <>
            <p>{s!.total} jobs · success rate {s!.success_rate === null ? '—' : `${Math.round(s!.success_rate * 100)} %`} · median {s!.median_duration_ms === null ? '—' : `${(s!.median_duration_ms / 1000).toFixed(1)} s`}</p>
            <div className="bar" role="img" aria-label={Object.entries(s!.by_status).map(([k, v]) => `${k} ${v}`).join(', ')}>
              {Object.entries(s!.by_status).map(([k, v]) => <span key={k} title={`${k}: ${v}`} style={{ height: `${(v / max) * 100}%` }} />)}
            </div>
            <div className="row hint">{Object.entries(s!.by_status).map(([k, v]) => <span key={k} style={{ flex: 1 }}>{k} {v}</span>)}</div>
            {s!.top_errors.length ? <ul>{s!.top_errors.map((e) => <li key={e.kind}>{e.kind} × {e.count}: <span className="hint">{e.example}</span></li>)}</ul> : null}
          </>
        )}
      </section>
      {search.job ? <Timeline id={search.job} /> : null}
      <h2>Recent jobs</h2>
      {recent.isPending ? <Loading /> : recent.error ? <ErrorBox error={recent.error} /> : recent.data.jobs.length === 0 ? <Empty>No crawl jobs yet.</Empty> : (
        <table className="responsive">
          <thead><tr><th scope="col">Job</th><th scope="col">Status</th><th scope="col">Pages</th><th scope="col">Started</th></tr></thead>
          <tbody>{recent.data.jobs.map((j) => (
            <tr key={j.id}>
              <td><button type="button" className="secondary" onClick={() => void navigate({ search: (x) => ({ ...x, job: String(j.id) }) })}>#{j.id} {j.domain}</button></td>
              <td><span className={`tag ${j.status}`}>{j.status}</span>{j.error ? <div className="hint">{j.error}</div> : null}</td>
              <td>{j.pages_fetched}</td>
              <td>{fmtDate(j.started_at ?? j.created_at)}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
    </>
  );
}
