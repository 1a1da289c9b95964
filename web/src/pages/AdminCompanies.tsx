import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ConfirmButton, Empty, ErrorBox, Loading, useToast, useTitle } from '../ui';

type Company = components['schemas']['AdminCompany'];
const DONE = { verify: 'verified', unverify: 'unverified', feature: 'featured', unfeature: 'no longer featured', delete: 'deleted' } as const;

function Actions({ c, onDone }: { c: Company; onDone: (msg: string) => void }) {
  const [plan, setPlan] = useState<'free' | 'pro'>(c.subscription_plan === 'pro' ? 'pro' : 'free');
  const path = { params: { path: { tool_id: c.id } } };
  const act = useMutation({
    mutationFn: async (what: 'verify' | 'unverify' | 'feature' | 'unfeature' | 'delete' | 'plan') => {
      if (what === 'plan') await unwrap(api.POST('/api/tools/admin/companies/{tool_id}/subscription', { ...path, body: { plan } }));
      else if (what === 'verify') await unwrap(api.POST('/api/tools/admin/companies/{tool_id}/verify', path));
      else if (what === 'unverify') await unwrap(api.POST('/api/tools/admin/companies/{tool_id}/unverify', path));
      else if (what === 'delete') await unwrap(api.DELETE('/api/tools/{tool_id}', path));
      else await unwrap(api.POST('/api/tools/admin/companies/{tool_id}/featured', { ...path, body: { featured: what === 'feature' } }));
      return what;
    },
    onSuccess: (what) => onDone(`${c.name}: ${what === 'plan' ? `plan set to ${plan}` : DONE[what]}`),
  });
  return (
    <>
      <div className="row">
        {c.is_verified ? (
          <ConfirmButton
            label="Unverify" title={`Unverify ${c.name}?`} confirmLabel="Unverify" danger disabled={act.isPending}
            body={<p>The company stops accepting proposals, and every agent that sent it one is told it is no longer verified.</p>}
            onConfirm={() => act.mutate('unverify')}
          />
        ) : <button type="button" className="secondary" disabled={act.isPending} onClick={() => act.mutate('verify')}>Verify<span className="skip"> {c.name}</span></button>}
        <button type="button" className="secondary" disabled={act.isPending} onClick={() => act.mutate(c.is_featured ? 'unfeature' : 'feature')}>{c.is_featured ? 'Unfeature' : 'Feature'}<span className="skip"> {c.name}</span></button>
        <select aria-label={`Plan of ${c.name}`} value={plan} onChange={(e) => setPlan(e.target.value === 'pro' ? 'pro' : 'free')} style={{ width: 'auto' }}>
          {/* The plans owners can buy (payments.plans.ts): an administrator grants one of those, nothing else. */}
          {['free', 'pro'].map((p) => <option key={p} value={p}>{p}</option>)}
        </select>
        <button type="button" className="secondary" disabled={act.isPending || plan === (c.subscription_plan ?? 'free')} onClick={() => act.mutate('plan')}>Set plan<span className="skip"> of {c.name}</span></button>
        <ConfirmButton label="Delete" title={`Delete ${c.name}?`} typed={c.domain} danger body={<p>The profile leaves the directory. Type the domain to confirm.</p>} onConfirm={() => act.mutate('delete')} />
      </div>
      <ErrorBox error={act.error} />
    </>
  );
}

export default function AdminCompanies() {
  useTitle('Companies (admin)');

  const search = useSearch({ from: '/admin/admin' });
  const navigate = useNavigate({ from: '/admin' });
  const [q, setQ] = useState(search.q ?? '');
  const qc = useQueryClient();
  const [toast, say] = useToast();
  const list = useInfiniteQuery({
    queryKey: ['admin-companies', search.q, search.view],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/api/tools/admin/companies', { params: { query: { limit: 25, ...(search.q ? { q: search.q } : {}), ...(search.view ? { view: search.view } : {}), ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = list.data?.pages.flatMap((p) => p.companies) ?? [];
  return (
    <>
      {toast}
      <h1>Companies</h1>
      <form className="row card" role="search" onSubmit={(e) => { e.preventDefault(); void navigate({ search: (s) => ({ ...s, q: q || undefined }) }); }}>
        <div>
          <label htmlFor="cview">Show</label>
          <select id="cview" value={search.view ?? ''} onChange={(e) => void navigate({ search: (s) => ({ ...s, view: (e.target.value || undefined) as typeof s.view }) })}>
            <option value="">All companies</option>
            <option value="to_verify">Waiting for verification (claimed)</option>
            <option value="unverified">Not verified</option>
            <option value="verified">Verified</option>
            <option value="featured">Featured</option>
            <option value="subscribed">On a paid plan</option>
          </select>
        </div>
        <div style={{ flex: 1, minWidth: '12rem' }}><label htmlFor="cq">Search by name or domain</label><input id="cq" type="search" value={q} onChange={(e) => setQ(e.target.value)} /></div>
        <button type="submit" style={{ alignSelf: 'flex-end' }}>Search</button>
      </form>
      {list.isPending ? <Loading /> : list.error ? <ErrorBox error={list.error} /> : rows.length === 0 ? <Empty>{search.view === 'to_verify' ? 'Nobody is waiting for verification.' : 'No companies match.'}</Empty> : (
        <>
          <p className="hint">{list.data.pages[0]!.total} companies</p>
          <table className="responsive">
            <thead><tr><th scope="col">Company</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
            <tbody>{rows.map((c) => (
              <tr key={c.id}>
                <td><strong>{c.name}</strong><div className="hint">{c.domain} · {c.category}</div></td>
                <td>{c.is_verified ? <span className="tag approved">verified</span> : <span className="tag">unverified</span>} {c.is_featured ? <span className="tag responded">featured</span> : null} {c.subscription_plan ? <span className="tag">{c.subscription_plan}</span> : null}</td>
                <td><Actions c={c} onDone={(m) => { say(m); void qc.invalidateQueries({ queryKey: ['admin-companies'] }); }} /></td>
              </tr>
            ))}</tbody>
          </table>
          {list.hasNextPage ? <button type="button" className="secondary" style={{ marginTop: '1rem' }} onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>{list.isFetchingNextPage ? 'Loading…' : 'Load more'}</button> : null}
        </>
      )}
    </>
  );
}
