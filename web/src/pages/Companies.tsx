import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Empty, ErrorBox, Loading, useTitle } from '../ui';
import { useOwner } from './Layout';

function AddCompany() {
  const me = useOwner();
  const qc = useQueryClient();
  const [site, setSite] = useState('');
  const domain = me.data?.user.email.split('@')[1];
  // Signed in by an emailed link already: an address on the site's domain claims it at once.
  const add = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/claim', { body: { website_url: site.trim() } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['my-tools'] });
      void qc.invalidateQueries({ queryKey: ['crawl', 'my-latest'] });
    },
  });
  return (
    <section className="card" aria-labelledby="add-h">
      <h2 id="add-h">Add my company</h2>
      {add.isSuccess ? (
        <p role="status" className="alert ok">
          {add.data.message} {add.data.crawl_error ? add.data.crawl_error : 'We are reading your website to build your profile: it takes a minute or two.'}
        </p>
      ) : null}
      <form onSubmit={(e) => { e.preventDefault(); add.mutate(); }}>
        <p className="hint">You can add the website of a company on your email's domain{domain ? ` (${domain})` : ''}: you@acme.com adds acme.com or shop.acme.com.</p>
        <label htmlFor="site">Website</label>
        <input id="site" type="text" inputMode="url" autoComplete="url" required placeholder="example.com" value={site} onChange={(e) => setSite(e.target.value)} />
        <ErrorBox error={add.error} />
        <div style={{ marginTop: '.75rem' }}><button type="submit" disabled={add.isPending || !me.data || !site.trim()}>Add my company</button></div>
      </form>
    </section>
  );
}

const STAGE_WORDS: Record<string, string> = {
  queued: 'waiting to start', robots: 'checking what the site allows', fetch: 'reading pages', analyse: 'writing the profile', save: 'saving', done: 'done',
};

function CrawlProgress() {
  const qc = useQueryClient();
  const latest = useQuery({
    queryKey: ['crawl', 'my-latest'],
    queryFn: () => unwrap(api.GET('/api/crawl/my-latest')),
    refetchInterval: (q) => (q.state.data?.job && ['queued', 'running'].includes(q.state.data.job.status) ? 2000 : false),
  });
  const job = latest.data?.job;
  const retry = useMutation({
    mutationFn: () => unwrap(api.POST('/api/crawl/start', { body: { url: job!.url } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['crawl', 'my-latest'] }),
  });
  if (!job) return null;
  const name = latest.data?.company?.name ?? job.domain;
  return (
    <section className="card" aria-labelledby="crawl-h">
      <h2 id="crawl-h">Reading your website</h2>
      <p role="status">
        {job.status === 'failed' ? `${name}: reading the website did not work.`
          : job.status === 'succeeded' ? `${name}: your profile was built from ${job.pages_fetched} pages of your website.`
            : `${name}: ${STAGE_WORDS[job.stage] ?? 'working'} · ${job.pages_fetched} pages read so far.`}
      </p>
      {job.problem ? <p className="alert error">{job.problem}</p> : null}
      {job.status === 'failed' ? (
        <div className="row">
          <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>Try again</button>
          <ErrorBox error={retry.error} />
        </div>
      ) : null}
    </section>
  );
}

export default function Companies() {
  useTitle('My companies');

  const tools = useQuery({ queryKey: ['my-tools'], queryFn: () => unwrap(api.GET('/api/tools/my-tools')) });
  return (
    <>
      <h1>My companies</h1>
      {tools.isPending ? <Loading /> : tools.error ? <ErrorBox error={tools.error} /> : tools.data.length === 0 ? (
        <Empty>You do not manage any company yet. Add yours below by its website.</Empty>
      ) : (
        <ul className="list card" aria-label="Companies">
          {tools.data.map((t) => (
            <li key={t.id} style={{ padding: '.75rem 0' }}>
              <strong>{t.name}</strong> <span className="hint">{t.domain}</span> {t.is_verified ? <span className="tag approved">verified</span> : <span className="tag">unverified</span>}
              <div className="row" style={{ marginTop: '.4rem' }}>
                <Link className="button secondary" to="/app/companies/$id/profile" params={{ id: t.id }} aria-label={`Profile of ${t.name}`}>Profile</Link>
                <Link className="button secondary" to="/app/companies/$id/widget" params={{ id: t.id }} aria-label={`Widget of ${t.name}`}>Widget</Link>
                <Link className="button secondary" to="/app/companies/$id/insights" params={{ id: t.id }} aria-label={`Insights of ${t.name}`}>Insights</Link>
                <Link className="button secondary" to="/app/companies/$id/reviews" params={{ id: t.id }} aria-label={`Reviews of ${t.name}`}>Reviews</Link>
                <Link className="button secondary" to="/app/companies/$id/scans" params={{ id: t.id }} aria-label={`Scans of ${t.name}`}>Scans</Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <CrawlProgress />
      <AddCompany />
    </>
  );
}
