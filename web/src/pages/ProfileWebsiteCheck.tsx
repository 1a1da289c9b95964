import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { Empty, ErrorBox, fmtDate, Loading, Success } from '../ui';
import { fieldLabel, valueText } from './diff';

// The monthly website check: the site is read again each month; what it now says differently, and its
// pictures, wait here until the owner takes them or dismisses them.
type Tool = components['schemas']['ToolDetailResponse'];
type Check = components['schemas']['WebsiteCheck'];

export function WebsiteCheck({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const key = ['website-check', tool.id];
  const q = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/tools/{tool_id}/website-check', { params: { path: { tool_id: tool.id } } })) });
  const [fields, setFields] = useState<string[] | null>(null);
  const [photos, setPhotos] = useState<string[]>([]);
  const [done, setDone] = useState('');
  // The box follows the click at once; the server's answer (or its refusal) settles it.
  const [monthlyDraft, setMonthlyDraft] = useState<boolean | null>(null);
  const refresh = (c: Check) => {
    qc.setQueryData(key, c);
    setFields(null);
    setPhotos([]);
  };
  const toggle = useMutation({
    mutationFn: (monthly: boolean) => unwrap(api.PUT('/api/tools/{tool_id}/website-check', { params: { path: { tool_id: tool.id } }, body: { monthly } })),
    onSuccess: (c) => { refresh(c); setDone(c.monthly ? 'The monthly check is on: the first one runs within the hour.' : 'The monthly check is off.'); },
    onSettled: () => setMonthlyDraft(null),
  });
  const accept = useMutation({
    mutationFn: (v: { id: string; fields: string[]; photos: string[] }) =>
      unwrap(api.POST('/api/tools/{tool_id}/website-check/suggestions/{suggestion_id}/accept', { params: { path: { tool_id: tool.id, suggestion_id: v.id } }, body: { fields: v.fields, photos: v.photos } })),
    onSuccess: (r) => {
      refresh(r.check);
      const parts = [r.applied_fields.length ? `${r.applied_fields.length} ${r.applied_fields.length === 1 ? 'change' : 'changes'} saved to your profile` : '', r.photos_added.length ? `${r.photos_added.length} ${r.photos_added.length === 1 ? 'picture' : 'pictures'} added to the gallery` : ''].filter(Boolean);
      setDone([parts.length ? `${parts.join(' and ')}.` : 'Nothing taken; the rest is dismissed.', ...r.problems].join(' '));
      void qc.invalidateQueries({ queryKey: ['tool', tool.id] });
    },
  });
  const dismiss = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/tools/{tool_id}/website-check/suggestions/{suggestion_id}/dismiss', { params: { path: { tool_id: tool.id, suggestion_id: id } } })),
    onSuccess: (c) => { refresh(c); setDone('Dismissed. Your profile is unchanged.'); },
  });

  if (q.isPending) return <section className="card" aria-labelledby="check-h"><h2 id="check-h">Website check</h2><Loading /></section>;
  if (q.error) return <section className="card" aria-labelledby="check-h"><h2 id="check-h">Website check</h2><ErrorBox error={q.error} /></section>;
  const c = q.data;
  const s = c.suggestion;
  const changed = s ? Object.keys(s.changes) : [];
  const chosen = fields ?? changed;
  const flip = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  return (
    <section className="card" aria-labelledby="check-h">
      <h2 id="check-h">Website check</h2>
      <p className="hint">We can read your website again every month. Nothing changes on your profile by itself: what your site now says differently waits here for you.</p>
      <div className="row">
        <input id="check-monthly" type="checkbox" checked={monthlyDraft ?? c.monthly} disabled={toggle.isPending} onChange={(e) => { setDone(''); setMonthlyDraft(e.target.checked); toggle.mutate(e.target.checked); }} />
        <label htmlFor="check-monthly" style={{ margin: 0 }}>Check my website every month</label>
      </div>
      {c.monthly ? <p className="hint">Next check: {fmtDate(c.next_check_at)}{c.last_check_at ? ` · last one: ${fmtDate(c.last_check_at)}` : ''}</p> : null}
      <ErrorBox error={toggle.error ?? accept.error ?? dismiss.error} />
      <Success>{done}</Success>
      {!s ? <Empty>Nothing to decide: your profile says what your website says.</Empty> : (
        <form onSubmit={(e) => { e.preventDefault(); setDone(''); accept.mutate({ id: s.id, fields: chosen, photos }); }}>
          <h3>Found on your website on {fmtDate(s.found_at)}</h3>
          {changed.length ? (
            <fieldset>
              <legend>Changes to take into your profile</legend>
              {changed.map((f) => (
                <div key={f} className="row" style={{ alignItems: 'flex-start' }}>
                  <input id={`chg-${f}`} type="checkbox" checked={chosen.includes(f)} onChange={() => setFields(flip(chosen, f))} />
                  <label htmlFor={`chg-${f}`} style={{ margin: 0 }}>
                    <strong>{fieldLabel(f)}</strong>: <del>{valueText(f, s.changes[f]!.current)}</del> → <ins>{valueText(f, s.changes[f]!.proposed)}</ins>
                  </label>
                </div>
              ))}
            </fieldset>
          ) : null}
          {s.photos.length ? (
            <fieldset>
              <legend>Pictures from your website for your gallery</legend>
              {s.photos.map((p, i) => (
                <div key={p.url} className="row">
                  <input id={`pic-${i}`} type="checkbox" checked={photos.includes(p.url)} onChange={() => setPhotos(flip(photos, p.url))} />
                  <label htmlFor={`pic-${i}`} style={{ margin: 0 }}>{p.caption || `Picture ${i + 1}`}</label>
                  <a href={p.url} target="_blank" rel="noopener noreferrer">See picture {i + 1}<span className="visually-hidden"> (opens in a new tab)</span></a>
                </div>
              ))}
            </fieldset>
          ) : null}
          <div className="row" style={{ marginTop: '.75rem' }}>
            <button type="submit" disabled={accept.isPending || (chosen.length === 0 && photos.length === 0)}>Take what is ticked</button>
            <button type="button" className="secondary" disabled={dismiss.isPending} onClick={() => { setDone(''); dismiss.mutate(s.id); }}>Dismiss all</button>
          </div>
        </form>
      )}
    </section>
  );
}
