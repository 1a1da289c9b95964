import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CompanyTabs } from './CompanyTabs';
import { useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';
import { Logo, Photos } from './ProfileMedia';
import { HeldFields } from './ProfileHeldFields';
import { WebsiteCheck } from './ProfileWebsiteCheck';
import { PriceForm, ServicePricesForm } from './ProfilePrices';
import { SocialLinksForm } from './ProfileLinks';
import { LanguagePicker } from './ProfileLanguages';
import { ListEditor } from './ProfileList';
import { DiffCells, fieldLabel } from './diff';

type Tool = components['schemas']['ToolDetailResponse'];
type AiEdit = components['schemas']['AiEditResponse'];

const TEXT_FIELDS = [
  ['name', 'Name', 200],
  ['industry', 'Industry', 200],
  ['city', 'City', 100],
  ['country', 'Country', 100],
  ['address', 'Street address', 300],
  ['contact_email', 'Contact email', 254],
  ['phone', 'Phone', 50],
] as const;

/** service_type in the words the public page uses. */
const SERVICE_TYPES = [
  ['local', 'Locally, where customers are (on site or in the shop)'],
  ['remote', 'Remotely (online, by phone or by post)'],
  ['hybrid', 'Both locally and remotely'],
  ['nationwide', 'Across the whole country'],
] as const;

function ProfileForm({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const initial = () => ({
    name: tool.name, industry: tool.industry, city: tool.city, country: tool.country, address: tool.address,
    contact_email: tool.contact_email ?? '', phone: tool.phone ?? '', description: tool.description,
    keywords: tool.keywords, services: tool.services, service_areas: tool.service_areas, languages: tool.languages.join(', '),
    founded_year: tool.founded_year ? String(tool.founded_year) : '',
    category: tool.category, service_type: tool.service_type as string,
  });
  const [f, setF] = useState(initial);
  const [base, setBase] = useState(initial);
  const savedByThisForm = useRef(false);
  useEffect(() => {
    const next = initial();
    // The profile changed on the server (a save, a logo upload, an AI edit or its undo). After this
    // form's own save every field follows the server; otherwise a field the owner is still editing
    // keeps its text (a refetch must not wipe unsaved work) and the untouched ones follow.
    const keepTyped = !savedByThisForm.current;
    savedByThisForm.current = false;
    type Key = keyof typeof next;
    const merge = (cur: typeof next) => Object.fromEntries(Object.entries(next).map(([k, v]) => [k, cur[k as Key] === base[k as Key] ? v : cur[k as Key]])) as typeof next;
    setF((cur) => (keepTyped ? merge(cur) : next));
    setBase(next);
  }, [tool.updated_at]); // eslint-disable-line react-hooks/exhaustive-deps
  const [problems, setProblems] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => {
      const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
      return unwrap(api.PUT('/api/tools/{tool_id}', {
        params: { path: { tool_id: tool.id } },
        body: {
          name: f.name, industry: f.industry, city: f.city, address: f.address, description: f.description,
          ...(f.country.trim() ? { country: f.country.trim() } : {}),
          contact_email: f.contact_email || null, phone: f.phone || null,
          keywords: f.keywords, services: f.services, service_areas: f.service_areas, languages: list(f.languages),
          founded_year: f.founded_year ? Number(f.founded_year) : null,
          category: f.category, service_type: f.service_type as Tool['service_type'],
        },
      }));
    },
    onSuccess: (t) => {
      savedByThisForm.current = true;
      qc.setQueryData(['tool', tool.id], t);
    },
  });
  const validate = () => {
    const p: Record<string, string> = {};
    if (!f.name.trim()) p.name = 'A name is required';
    if (f.contact_email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(f.contact_email)) p.contact_email = 'Not an email address';
    if (f.founded_year && !/^\d{4}$/.test(f.founded_year)) p.founded_year = 'A four-digit year';
    setProblems(p);
    return Object.keys(p).length === 0;
  };
  type TextKey = Exclude<keyof typeof f, 'keywords' | 'services' | 'service_areas' | 'category' | 'service_type'>;
  const categories = useQuery({ queryKey: ['categories'], queryFn: () => unwrap(api.GET('/api/v1/agent/categories')), staleTime: Infinity });
  const choose = (key: 'category' | 'service_type', value: string) => { save.reset(); setF({ ...f, [key]: value }); };
  const field = (key: TextKey, label: string, max?: number, multiline = false) => (
    <div key={key}>
      <label htmlFor={`f-${key}`}>{label}</label>
      {multiline ? (
        <textarea id={`f-${key}`} value={f[key]} maxLength={max} onChange={(e) => { save.reset(); setF({ ...f, [key]: e.target.value }); }} />
      ) : (
        <input id={`f-${key}`} value={f[key]} maxLength={max} aria-invalid={problems[key] ? true : undefined} aria-describedby={problems[key] ? `e-${key}` : undefined} onChange={(e) => { save.reset(); setF({ ...f, [key]: e.target.value }); }} />
      )}
      {problems[key] ? <p id={`e-${key}`} className="error">{problems[key]}</p> : null}
    </div>
  );
  return (
    <form className="card" aria-labelledby="edit-h" onSubmit={(e) => { e.preventDefault(); if (validate()) save.mutate(); }} noValidate>
      <h2 id="edit-h">Edit profile</h2>
      <p className="hint">Website: <strong>{tool.domain}</strong>. The website identifies the profile: to list another website, add that company under “My companies”.</p>
      <div className="grid2">
        <div>
          <label htmlFor="f-category">Category</label>
          <select id="f-category" value={f.category} onChange={(e) => choose('category', e.target.value)}>
            {[...new Set([f.category, ...(categories.data?.categories ?? [])])].map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="f-service_type">Where you work</label>
          <select id="f-service_type" value={f.service_type} onChange={(e) => choose('service_type', e.target.value)}>
            {SERVICE_TYPES.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </select>
        </div>
        {TEXT_FIELDS.map(([k, l, m]) => field(k, l, m))}
        {field('founded_year', 'Founded (year)', 4)}
      </div>
      {field('description', 'Description', 5000, true)}
      <ListEditor label="Services" hint="What you offer, one at a time: agents match requests against these." value={f.services} max={50} maxLength={120}
        onChange={(services) => { save.reset(); setF({ ...f, services }); }} />
      <ListEditor label="Also serves" hint="Towns, regions or countries you work in beyond your own city, one at a time." value={f.service_areas} max={20} maxLength={100}
        onChange={(service_areas) => { save.reset(); setF({ ...f, service_areas }); }} />
      <ListEditor label="Keywords" hint="Words customers search for, one at a time." value={f.keywords} max={30} maxLength={120}
        onChange={(keywords) => { save.reset(); setF({ ...f, keywords }); }} />
      <LanguagePicker value={f.languages.split(',').map((x) => x.trim()).filter(Boolean)} onChange={(codes) => { save.reset(); setF({ ...f, languages: codes.join(', ') }); }} />
      <ErrorBox error={save.error} />
      <Success>{save.isSuccess ? 'Profile saved.' : null}</Success>
      <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save profile'}</button>
    </form>
  );
}

const WEEK = [['monday', 'Monday'], ['tuesday', 'Tuesday'], ['wednesday', 'Wednesday'], ['thursday', 'Thursday'], ['friday', 'Friday'], ['saturday', 'Saturday'], ['sunday', 'Sunday']] as const;
type Day = (typeof WEEK)[number][0];
interface DayRow { open: boolean; from: string; to: string; from2: string; to2: string }
interface ExceptionRow { date: string; closed: boolean; from: string; to: string; note: string }
type Hours = Partial<Record<Day, string[][]>> & { exceptions?: { date: string; closed?: boolean; hours?: string[][]; note?: string }[] };

/** The week and the dated exceptions as one form: each day open or closed, one or two time ranges. */
function HoursForm({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const hours = (tool.opening_hours ?? null) as Hours | null;
  const rowsFrom = (h: Hours | null) => Object.fromEntries(WEEK.map(([d]) => {
    const r = h?.[d] ?? [];
    return [d, { open: r.length > 0, from: r[0]?.[0] ?? '09:00', to: r[0]?.[1] ?? '17:00', from2: r[1]?.[0] ?? '', to2: r[1]?.[1] ?? '' }];
  })) as Record<Day, DayRow>;
  const exceptionsFrom = (h: Hours | null): ExceptionRow[] => (h?.exceptions ?? []).map((e) => ({ date: e.date, closed: !!e.closed || !e.hours?.length, from: e.hours?.[0]?.[0] ?? '', to: e.hours?.[0]?.[1] ?? '', note: e.note ?? '' }));
  const [days, setDays] = useState(() => rowsFrom(hours));
  const [exceptions, setExceptions] = useState(() => exceptionsFrom(hours));
  // The profile changed on the server (this save, an AI edit, another tab): the form follows it (derived during render).
  const [shown, setShown] = useState(tool.updated_at);
  if (shown !== tool.updated_at) {
    setShown(tool.updated_at);
    setDays(rowsFrom(hours));
    setExceptions(exceptionsFrom(hours));
  }
  const body = (): Hours | null => {
    const out: Hours = {};
    for (const [d] of WEEK) {
      const r = days[d];
      if (!r.open) continue;
      out[d] = [[r.from, r.to], ...(r.from2 && r.to2 ? [[r.from2, r.to2]] : [])];
    }
    const ex = exceptions.filter((e) => e.date).map((e) => ({
      date: e.date,
      ...(e.closed || !e.from || !e.to ? { closed: true } : { hours: [[e.from, e.to]] }),
      ...(e.note.trim() ? { note: e.note.trim() } : {}),
    }));
    if (ex.length) out.exceptions = ex;
    return Object.keys(out).length ? out : null;
  };
  const save = useMutation({
    mutationFn: (clear: boolean) => unwrap(api.PUT('/api/tools/{tool_id}', { params: { path: { tool_id: tool.id } }, body: { opening_hours: clear ? null : body() } })),
    onSuccess: (t) => qc.setQueryData(['tool', tool.id], t),
  });
  const setDay = (d: Day, patch: Partial<DayRow>) => setDays({ ...days, [d]: { ...days[d], ...patch } });
  return (
    <form className="card" aria-labelledby="hours-h" onSubmit={(e) => { e.preventDefault(); save.mutate(false); }} noValidate>
      <h2 id="hours-h">Opening hours</h2>
      <p className="hint">{tool.timezone ? `Times are in your city's time zone (${tool.timezone.replace(/_/g, ' ')}); AI assistants see whether you are open now.` : 'Set your city first: opening hours are read in its time zone.'} A second range is for a break (for example 08:00–12:00 and 13:00–17:00).</p>
      <table className="hours-edit">
        <thead><tr><th scope="col">Day</th><th scope="col">Open</th><th scope="col">Hours</th><th scope="col">After a break (optional)</th></tr></thead>
        <tbody>
          {WEEK.map(([d, label]) => (
            <tr key={d}>
              <th scope="row">{label}</th>
              <td><input type="checkbox" id={`h-${d}-open`} aria-label={`Open on ${label}`} checked={days[d].open} onChange={(e) => setDay(d, { open: e.target.checked })} /></td>
              <td>{days[d].open ? <><input type="time" aria-label={`${label} opens`} value={days[d].from} onChange={(e) => setDay(d, { from: e.target.value })} /> – <input type="time" aria-label={`${label} closes`} value={days[d].to} onChange={(e) => setDay(d, { to: e.target.value })} /></> : 'Closed'}</td>
              <td>{days[d].open ? <><input type="time" aria-label={`${label} opens again`} value={days[d].from2} onChange={(e) => setDay(d, { from2: e.target.value })} /> – <input type="time" aria-label={`${label} closes again`} value={days[d].to2} onChange={(e) => setDay(d, { to2: e.target.value })} /></> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Holidays and other exceptions</h3>
      {exceptions.length === 0 ? <p className="hint">No exceptions: every date follows the week above.</p> : null}
      <ul className="plain">
        {exceptions.map((ex, i) => {
          const set = (patch: Partial<ExceptionRow>) => setExceptions(exceptions.map((x, j) => (j === i ? { ...x, ...patch } : x)));
          return (
            <li key={i}>
              <input type="date" aria-label="Date" value={ex.date} onChange={(e) => set({ date: e.target.value })} />{' '}
              <label><input type="checkbox" checked={ex.closed} onChange={(e) => set({ closed: e.target.checked })} /> Closed all day</label>{' '}
              {ex.closed ? null : <><input type="time" aria-label="Opens that day" value={ex.from} onChange={(e) => set({ from: e.target.value })} /> – <input type="time" aria-label="Closes that day" value={ex.to} onChange={(e) => set({ to: e.target.value })} /></>}{' '}
              <input aria-label="Note (for example Christmas)" placeholder="Note (for example Christmas)" maxLength={120} value={ex.note} onChange={(e) => set({ note: e.target.value })} />{' '}
              <button type="button" className="secondary" onClick={() => setExceptions(exceptions.filter((_, j) => j !== i))}>Remove<span className="visually-hidden"> the exception of {ex.date || 'this date'}</span></button>
            </li>
          );
        })}
      </ul>
      <p><button type="button" className="secondary" onClick={() => setExceptions([...exceptions, { date: '', closed: true, from: '', to: '', note: '' }])}>Add an exception</button></p>
      <ErrorBox error={save.error} />
      <Success>{save.isSuccess ? 'Opening hours saved.' : null}</Success>
      <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save opening hours'}</button>{' '}
      {hours ? <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate(true)}>Remove opening hours</button> : null}
    </form>
  );
}

function AiEditPanel({ tool, prefill }: { tool: Tool; prefill?: string }) {
  const qc = useQueryClient();
  const [instruction, setInstruction] = useState(prefill ?? '');
  const [preview, setPreview] = useState<AiEdit | null>(null);
  const [applied, setApplied] = useState<AiEdit | null>(null);
  const refresh = (t: Tool | null | undefined) => {
    if (t) qc.setQueryData(['tool', tool.id], t);
    void qc.invalidateQueries({ queryKey: ['history', tool.id] });
  };
  const propose = useMutation({
    mutationFn: () => unwrap(api.POST('/api/tools/{tool_id}/ai-edit', { params: { path: { tool_id: tool.id } }, body: { instruction } })),
    onSuccess: (r) => { setPreview(r); setApplied(null); },
  });
  const apply = useMutation({
    mutationFn: () => unwrap(api.POST('/api/tools/{tool_id}/ai-edit', { params: { path: { tool_id: tool.id } }, body: { instruction, apply: true, changes: preview!.proposed } })),
    onSuccess: (r) => { setApplied(r); setPreview(null); refresh(r.tool); },
  });
  const undo = useMutation({
    mutationFn: () => unwrap(api.POST('/api/tools/{tool_id}/ai-edit/undo', { params: { path: { tool_id: tool.id } } })),
    onSuccess: (r) => { setApplied(null); refresh(r.tool); },
  });
  return (
    <section className="card" aria-labelledby="ai-h">
      <h2 id="ai-h">AI edit</h2>
      <form onSubmit={(e) => { e.preventDefault(); propose.mutate(); }}>
        <label htmlFor="instruction">What should change?</label>
        <textarea id="instruction" value={instruction} onChange={(e) => setInstruction(e.target.value)} maxLength={2000} placeholder="e.g. Add that we offer weekend support" />
        <ErrorBox error={propose.error} />
        <button type="submit" disabled={propose.isPending || !instruction.trim()}>{propose.isPending ? 'Preparing…' : 'Preview changes'}</button>
      </form>
      {preview ? (
        <div aria-live="polite">
          <h3>Proposed changes</h3>
          {preview.notes ? <p className="hint">{preview.notes}</p> : null}
          {preview.diff.length === 0 ? <Empty>No change proposed for this instruction.</Empty> : (
            <table className="diff responsive">
              <caption className="hint" style={{ textAlign: 'left' }}>Before and after, field by field: removed words struck through, new ones underlined</caption>
              <thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
              <tbody>{preview.diff.map((d) => <tr key={d.field}><th scope="row">{fieldLabel(d.field)}</th><DiffCells field={d.field} before={d.before} after={d.after} /></tr>)}</tbody>
            </table>
          )}
          {preview.rejected.length ? <ul>{preview.rejected.map((r) => <li key={r.field} className="error">{r.field}: {r.reason}</li>)}</ul> : null}
          <ErrorBox error={apply.error} />
          <div className="row" style={{ marginTop: '.5rem' }}>
            <button type="button" onClick={() => apply.mutate()} disabled={apply.isPending || preview.diff.length === 0}>Apply exactly this</button>
            <button type="button" className="secondary" onClick={() => setPreview(null)}>Discard</button>
          </div>
        </div>
      ) : null}
      {applied || tool.ai_edit_undo_available ? (
        <div className="alert info" role="status">
          {applied ? `Applied ${applied.diff.length} change(s). ` : 'The last AI edit can be undone. '}
          <button type="button" className="secondary" onClick={() => undo.mutate()} disabled={undo.isPending}>Undo AI edit</button>
        </div>
      ) : null}
      <ErrorBox error={undo.error} />
      {undo.isSuccess ? <Success>AI edit undone: {undo.data.restored.length} field(s) restored.</Success> : null}
    </section>
  );
}

const CRAWLED_FIELDS = [['name', 'Name'], ['phone', 'Phone'], ['city', 'City'], ['country', 'Country'], ['address', 'Street address']] as const;

/** The page a value was found on, as its path (the full address in the link). */
const pageLabel = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}` || '/';
  } catch {
    return url;
  }
};

/** Where the crawled fields came from (the company's latest crawl): page, method and confidence. */
function Provenance({ tool }: { tool: Tool }) {
  const p = useQuery({
    queryKey: ['provenance', tool.id, tool.updated_at],
    queryFn: () => unwrap(api.GET('/api/crawl/company/{tool_id}/provenance', { params: { path: { tool_id: tool.id } } })),
  });
  return (
    <section className="card" aria-labelledby="prov-h">
      <h2 id="prov-h">Where the values came from</h2>
      {p.isPending ? <Loading /> : p.error ? <ErrorBox error={p.error} /> : p.data.job_id === null ? <Empty>Your website has not been crawled yet.</Empty> : (
        <>
          <p className="hint">From the crawl of {fmtDate(p.data.crawled_at)}{p.data.analyser === 'llm' ? ' (checked by a language model)' : ''}. Fields you edited by hand are kept on the next crawl.</p>
          <table className="responsive">
            <thead><tr><th scope="col">Field</th><th scope="col">Found</th><th scope="col">Page</th><th scope="col">Method</th><th scope="col">Confidence</th></tr></thead>
            <tbody>{CRAWLED_FIELDS.map(([key, label]) => {
              const s = p.data.fields[key];
              const edited = tool.owner_edited_fields.includes(key);
              return (
                <tr key={key}>
                  <th scope="row">{label}{edited ? <div className="hint">edited by you</div> : null}</th>
                  <td>{s ? s.value : <span className="hint">not found</span>}</td>
                  <td>{s?.url ? <a href={s.url} rel="noreferrer noopener" target="_blank">{pageLabel(s.url)}</a> : '—'}</td>
                  <td>{s ? s.method : '—'}</td>
                  <td>{s ? `${Math.round(s.confidence * 100)} %` : '—'}</td>
                </tr>
              );
            })}</tbody>
          </table>
        </>
      )}
    </section>
  );
}

const EDIT_SOURCE: Record<string, string> = { edit: 'Edited by hand', ai_edit: 'AI edit', undo: 'AI edit undone', logo: 'New logo', photos: 'Photo gallery', delete: 'Removed' };

/** The profile's edits; read again whenever the profile changes (any save on this page moves its updated_at). */
function History({ id, updatedAt }: { id: string; updatedAt: string }) {
  const h = useQuery({ queryKey: ['history', id, updatedAt], placeholderData: keepPreviousData, queryFn: () => unwrap(api.GET('/api/tools/{tool_id}/history', { params: { path: { tool_id: id }, query: { limit: 20 } } })) });
  return (
    <section className="card" aria-labelledby="hist-h">
      <h2 id="hist-h">Edit history</h2>
      {h.isPending ? <Loading /> : h.error ? <ErrorBox error={h.error} /> : h.data.edits.length === 0 ? <Empty>No edits yet.</Empty> : (
        <table className="responsive">
          <thead><tr><th scope="col">When</th><th scope="col">Source</th><th scope="col">By</th><th scope="col">Fields</th></tr></thead>
          <tbody>{h.data.edits.map((e) => (
            <tr key={e.id}><td>{fmtDate(e.created_at)}</td><td>{EDIT_SOURCE[e.source] ?? e.source}</td><td>{e.actor_email ?? (e.actor_kind === 'admin' ? 'an administrator' : 'you')}</td><td>{Object.keys(e.changes ?? {}).map(fieldLabel).join(', ')}</td></tr>
          ))}</tbody>
        </table>
      )}
    </section>
  );
}

export default function Profile() {
  useTitle('Profile');

  const { id } = useParams({ from: '/owner/app/companies/$id/profile' });
  const { instruction } = useSearch({ from: '/owner/app/companies/$id/profile' });
  const tool = useQuery({ queryKey: ['tool', id], queryFn: () => unwrap(api.GET('/api/tools/{tool_id}/edit-data', { params: { path: { tool_id: id } } })) });
  if (tool.isPending) return <Loading what="Loading the profile" />;
  if (tool.error) return <><CompanyTabs id={id} /><h1>Profile</h1><ErrorBox error={tool.error} /></>;
  return (
    <>
      <CompanyTabs id={id} />
      <h1>{tool.data.name}: profile</h1>
      <p className="hint"><a href={tool.data.profile_url}>Public profile</a> · updated {fmtDate(tool.data.updated_at)}</p>
      <HeldFields tool={tool.data} />
      <AiEditPanel tool={tool.data} prefill={instruction} />
      <ProfileForm tool={tool.data} />
      <HoursForm tool={tool.data} />
      <PriceForm tool={tool.data} />
      <ServicePricesForm tool={tool.data} />
      <SocialLinksForm tool={tool.data} />
      <WebsiteCheck tool={tool.data} />
      <Provenance tool={tool.data} />
      <Logo tool={tool.data} />
      <Photos tool={tool.data} />
      <History id={id} updatedAt={tool.data.updated_at} />
    </>
  );
}
