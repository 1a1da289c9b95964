import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ErrorBox, Success } from '../ui';

// Values a crawl read but was not sure of (below the field's publish threshold): not on the public profile
// until the owner (or an administrator) uses them. The card shows only when something waits.
type Tool = components['schemas']['ToolDetailResponse'];
type Held = components['schemas']['HeldField'];

const WHAT: Record<Held['field'], string> = { name: 'the company name', phone: 'the phone number', city: 'the town', country: 'the country', address: 'the address' };

/** Where the value was read, in words: "your contact page", "your home page", "the page /about". */
export function pageWords(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'your website';
  }
  if (path === '/' || /^\/index\.\w+$/.test(path)) return 'your home page';
  if (/contact|kontakt/i.test(path)) return 'your contact page';
  if (/impressum|imprint|legal/i.test(path)) return 'your legal notice';
  if (/about|ueber|über/i.test(path)) return 'your about page';
  return `the page ${path}`;
}

export function heldSentence(h: Held): string {
  return `We found ${WHAT[h.field]} “${h.value}” on ${pageWords(h.source_url)} but are not sure it is right.`;
}

export function HeldFields({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const key = ['held-fields', tool.id];
  const q = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/tools/{tool_id}/held-fields', { params: { path: { tool_id: tool.id } } })) });
  const [done, setDone] = useState('');
  const path = (held_id: string) => ({ params: { path: { tool_id: tool.id, held_id } } });
  const use = useMutation({
    mutationFn: (h: Held) => unwrap(api.POST('/api/tools/{tool_id}/held-fields/{held_id}/accept', path(h.id))),
    onSuccess: (r) => {
      qc.setQueryData(key, { held: r.held });
      qc.setQueryData(['tool', tool.id], r.company);
      setDone(`Saved: your profile now shows ${WHAT[r.accepted.field]} “${r.accepted.value}”.`);
    },
    onError: () => void qc.invalidateQueries({ queryKey: key }),
  });
  const dismiss = useMutation({
    mutationFn: (h: Held) => unwrap(api.POST('/api/tools/{tool_id}/held-fields/{held_id}/dismiss', path(h.id))),
    onSuccess: (r) => {
      qc.setQueryData(key, { held: r.held });
      setDone(`Dismissed: “${r.dismissed.value}” stays off your profile and will not be suggested again.`);
    },
    onError: () => void qc.invalidateQueries({ queryKey: key }),
  });

  // Nothing waiting (or the list could not be read): no card; the rest of the page stands on its own.
  const held = q.data?.held ?? [];
  if (!held.length && !done && !use.error && !dismiss.error) return null;
  return (
    <section className="card" aria-labelledby="held-h" data-testid="held-fields">
      <h2 id="held-h">Please confirm</h2>
      <p className="hint">Our crawler read these on your website but was not sure enough to publish them. Nothing here is on your public profile until you use it.</p>
      <ErrorBox error={use.error ?? dismiss.error} />
      <Success>{done}</Success>
      {held.length ? (
        <ul className="plain">
          {held.map((h) => (
            <li key={h.id} className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
              <span>{heldSentence(h)}</span>
              <span className="row">
                <button type="button" disabled={use.isPending || dismiss.isPending} onClick={() => { setDone(''); use.mutate(h); }}>Use it<span className="skip"> ({WHAT[h.field]})</span></button>
                <button type="button" className="secondary" disabled={use.isPending || dismiss.isPending} onClick={() => { setDone(''); dismiss.mutate(h); }}>Dismiss<span className="skip"> {WHAT[h.field]}</span></button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
