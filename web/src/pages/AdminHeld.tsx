import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';

type Held = components['schemas']['CrawlHeldQueue']['held'][number];

const WHAT: Record<Held['field'], string> = { name: 'name', phone: 'phone number', city: 'town', country: 'country', address: 'address' };

/** Where the value was read, in words: "its home page", "the page /contact". */
function pageOf(url: string): string {
  try {
    const path = new URL(url).pathname;
    return path === '/' ? 'its home page' : `the page ${path}`;
  } catch {
    return 'its website';
  }
}

/**
 * Values crawls held back (below a field's publish threshold), every company, oldest first: an administrator uses or
 * dismisses each, as the company's owner can on the profile screen.
 */
export default function AdminHeld() {
  useTitle('Values to confirm');
  const qc = useQueryClient();
  const [done, setDone] = useState('');
  const q = useQuery({ queryKey: ['admin-held'], queryFn: () => unwrap(api.GET('/api/crawl/admin/held', { params: { query: { limit: 100 } } })) });
  const path = (h: Held) => ({ params: { path: { tool_id: h.company_id, held_id: h.id } } });
  const decide = useMutation({
    mutationFn: async (v: { h: Held; use: boolean }) => {
      if (v.use) await unwrap(api.POST('/api/tools/{tool_id}/held-fields/{held_id}/accept', path(v.h)));
      else await unwrap(api.POST('/api/tools/{tool_id}/held-fields/{held_id}/dismiss', path(v.h)));
      return v;
    },
    onSuccess: ({ h, use }) => setDone(use ? `${h.company_name} now shows the ${WHAT[h.field]} “${h.value}”.` : `“${h.value}” stays off ${h.company_name}'s profile and will not be suggested again.`),
    onSettled: () => void qc.invalidateQueries({ queryKey: ['admin-held'] }),
  });
  return (
    <>
      <h1>Values to confirm</h1>
      <p className="hint">A crawl publishes a name, phone, town, country or address only when it is sure of it. The others wait here, and on the owner's profile screen, until someone uses or dismisses them.</p>
      <ErrorBox error={decide.error} />
      <Success>{done}</Success>
      {q.isPending ? <Loading /> : q.error ? <ErrorBox error={q.error} /> : q.data.held.length === 0 ? <Empty>Nothing waits for confirmation.</Empty> : (
        <>
          <p className="hint">{q.data.total} {q.data.total === 1 ? 'value waits' : 'values wait'}{q.data.has_more ? `; the oldest ${q.data.held.length} are shown` : ''}.</p>
          <ul aria-label="Values to confirm" style={{ padding: 0 }}>
            {q.data.held.map((h) => (
              <li key={h.id} className="card" style={{ listStyle: 'none' }}>
                <p>The crawl read the {WHAT[h.field]} “{h.value}” for <strong>{h.company_name}</strong> on {pageOf(h.source_url)} but was not sure it is right.</p>
                <p className="hint">{h.website_url} · found {fmtDate(h.found_at)}</p>
                <div className="row" style={{ gap: '.5rem' }}>
                  <button type="button" disabled={decide.isPending} onClick={() => { setDone(''); decide.mutate({ h, use: true }); }}>Use it<span className="skip"> for {h.company_name}</span></button>
                  <button type="button" className="secondary" disabled={decide.isPending} onClick={() => { setDone(''); decide.mutate({ h, use: false }); }}>Dismiss<span className="skip"> the {WHAT[h.field]} of {h.company_name}</span></button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
