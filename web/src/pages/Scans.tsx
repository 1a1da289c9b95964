import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CompanyTabs } from './CompanyTabs';
import { useParams } from '@tanstack/react-router';
import { api, ApiError, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { Empty, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

type Finding = components['schemas']['ScanFinding'];

/** Score history as a small SVG line (oldest left). */
function ScoreChart({ points }: { points: { score: number; at: string }[] }) {
  if (points.length < 2) return null;
  const w = 480, h = 120, step = w / (points.length - 1);
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${(i * step).toFixed(1)},${(h - (p.score / 100) * h).toFixed(1)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${w} ${h}`} width="100%" height={h} role="img" aria-label={`Score history: ${points.map((p) => p.score).join(', ')}`}>
      <path d={d} fill="none" stroke="#1749c9" strokeWidth="3" />
    </svg>
  );
}

/** A finding's fix: what to do, the steps, and the file of the agent files that does it. */
function FixOf({ fix }: { fix: Finding['fix'] }) {
  if (!fix) return null;
  return (
    <div className="hint">
      {fix.summary}
      {fix.steps?.length ? <ol style={{ margin: '.2rem 0' }}>{fix.steps.map((s, i) => <li key={i}>{s}</li>)}</ol> : null}
      {fix.bundle_file ? <div>In the agent files: <code>{fix.bundle_file}</code></div> : null}
    </div>
  );
}

/** Why a scan failed, for people (the API's failure_reason is a code). */
const SCAN_FAILURE_WORDS: Record<string, string> = {
  dns: "the website's address could not be found",
  tls: "the website's secure connection (its HTTPS certificate) did not work",
  timeout: 'the website took too long to answer',
  unreachable: 'the website could not be reached',
  blocked: 'the website refused our scanner',
  invalid_url: 'the website address is not valid',
  private_address: 'the address points to a private network',
  rate_limited: 'several scans were started in a short time; wait a few minutes',
  internal: 'something went wrong on our side',
};

export default function Scans() {
  useTitle('Scans');

  const { id } = useParams({ from: '/owner/app/companies/$id/scans' });
  const qc = useQueryClient();
  const latest = useQuery({
    queryKey: ['scan', id],
    queryFn: () => unwrap(api.GET('/api/scans/tool/{tool_id}/latest', { params: { path: { tool_id: id } } })).catch((e) => {
      if (e instanceof ApiError && e.status === 404 && /scan/i.test(e.message)) return null;
      throw e;
    }),
    refetchInterval: (q) => (q.state.data && ['queued', 'running'].includes(q.state.data.state) ? 2000 : false),
  });
  const history = useQuery({ queryKey: ['scan-history', id], queryFn: () => unwrap(api.GET('/api/scans/tool/{tool_id}/history', { params: { path: { tool_id: id }, query: { limit: 20 } } })) });
  const start = useMutation({
    mutationFn: () => unwrap(api.POST('/api/scans/tool/{tool_id}/start', { params: { path: { tool_id: id } } })),
    onSuccess: () => { void qc.invalidateQueries({ queryKey: ['scan', id] }); void qc.invalidateQueries({ queryKey: ['scan-history', id] }); },
  });
  const files = useMutation({ mutationFn: () => unwrap(api.POST('/api/scans/tool/{tool_id}/generate-files', { params: { path: { tool_id: id } }, body: {} })) });
  const scan = latest.data;
  const running = !!scan && ['queued', 'running'].includes(scan.state);
  const points = (history.data?.scans ?? []).filter((s) => s.score !== null).map((s) => ({ score: s.score!, at: s.created_at })).reverse();
  return (
    <>
      <CompanyTabs id={id} />
      <h1>Agent-readiness scans</h1>
      <div className="row" style={{ marginBottom: '1rem' }}>
        <button type="button" onClick={() => start.mutate()} disabled={start.isPending || running}>{running ? 'Scanning…' : scan?.state === 'failed' ? 'Try the scan again' : 'Scan now'}</button>
        <button type="button" className="secondary" onClick={() => files.mutate()} disabled={files.isPending || scan?.state !== 'completed'}>Prepare agent files</button>
        {files.data ? <a className="button" href={files.data.download.url} download>Download agent files (ZIP)</a> : null}
      </div>
      {files.data ? <p className="hint" role="status">{files.data.files.length} files ready ({files.data.files.map((f) => f.name).join(', ')}). The link works once, until {fmtDate(files.data.download.expires_at)}.</p> : null}
      <ErrorBox error={start.error ?? files.error} />
      {latest.isPending ? <Loading /> : latest.error ? <ErrorBox error={latest.error} /> : !scan ? <Empty>No scan yet. Press “Scan now” to check how well agents can read your website.</Empty> : (
        <>
          <section className="card" aria-labelledby="score-h">
            <h2 id="score-h">Score {scan.score ?? '—'} {scan.grade ? `(${scan.grade})` : ''}</h2>
            <p role="status" className="hint"><span className={`tag ${scan.state === 'completed' ? 'succeeded' : scan.state}`}>{scan.state}</span> · {fmtDate(scan.finished_at ?? scan.created_at)} · {scan.url}</p>
            {scan.state === 'failed' ? (
              <p className="alert error">
                The scan could not finish: {SCAN_FAILURE_WORDS[scan.failure_reason ?? 'internal'] ?? SCAN_FAILURE_WORDS.internal}. Check that your website opens in a browser, then press “Try the scan again”.
                Agent files are prepared from a finished scan.
              </p>
            ) : null}
            <ScoreChart points={points} />
          </section>
          {scan.top_fixes.length ? (
            <section className="card" aria-labelledby="first-h">
              <h2 id="first-h">Fix first</h2>
              <ol>{scan.top_fixes.map((id) => {
                const f = scan.findings.find((x) => x.id === id);
                return <li key={id}>{f ? <><strong>{f.title}</strong>{f.fix ? `: ${f.fix.summary}` : ''}</> : id}</li>;
              })}</ol>
            </section>
          ) : null}
          {scan.state !== 'completed' ? null : <section className="card" aria-labelledby="find-h">
            <h2 id="find-h">Findings</h2>
            {scan.findings.length === 0 ? <Empty>Every check passed.</Empty> : (
              <table className="responsive">
                <thead><tr><th scope="col">Check</th><th scope="col">Status</th><th scope="col">What to do</th></tr></thead>
                <tbody>{scan.findings.filter((f) => f.status !== 'pass').concat(scan.findings.filter((f) => f.status === 'pass')).map((f) => (
                  <tr key={f.id}><td>{f.title}<div className="hint">{f.group}</div></td><td><span className={`tag ${f.status === 'pass' ? 'succeeded' : f.status === 'fail' ? 'failed' : 'pending'}`}>{f.status}</span></td><td>{f.message}<FixOf fix={f.fix} /></td></tr>
                ))}</tbody>
              </table>
            )}
          </section>}
        </>
      )}
    </>
  );
}
