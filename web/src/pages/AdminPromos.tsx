import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useState, type ReactNode } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ConfirmButton, Empty, ErrorBox, Loading, Success, fmtDate, useToast, useTitle } from '../ui';

type Promo = components['schemas']['Promo'];
type PromoCreate = components['schemas']['PromoCreateRequest'];
type PromoUpdate = components['schemas']['PromoUpdateRequest'];
type Problems = Record<string, string>;

const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/;
const IMMUTABLE_NOTE = 'The discount, its duration, the billing periods and the first-time rule cannot change once a code exists (the payment provider’s coupons are immutable): to change them, deactivate the code and create a new one.';

const money = (minor: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
};

export function discountText(d: Promo['discount']): string {
  const off = d.type === 'percent' ? `${d.percent_off ?? 0} % off` : `${money(d.amount_off ?? 0, d.currency ?? 'eur')} off`;
  const how = d.duration === 'once' ? 'first payment' : d.duration === 'forever' ? 'every payment' : `for ${d.duration_in_months} months`;
  return `${off}, ${how}`;
}

/** An ISO time as the value of an <input type="datetime-local"> (local time), and back. */
const pad = (n: number) => String(n).padStart(2, '0');
const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (v: string) => new Date(v).toISOString();
const isWhole = (v: string, min: number, max: number) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max;

/** A labelled control with its error next to it (announced with the field: aria-describedby). */
function Field(props: { id: string; label: string; problem?: string | undefined; hint?: string; children: (a11y: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const described = [props.hint ? `${props.id}-hint` : '', props.problem ? `${props.id}-err` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({ id: props.id, ...(props.problem ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
      {props.hint ? <p id={`${props.id}-hint`} className="hint" style={{ margin: '.2rem 0 0' }}>{props.hint}</p> : null}
      {props.problem ? <p id={`${props.id}-err`} className="error" style={{ margin: '.2rem 0 0' }}>{props.problem}</p> : null}
    </div>
  );
}

const EMPTY_FORM = {
  code: '', description: '', discount_type: 'percent' as 'percent' | 'amount', percent_off: '', amount_off: '', currency: 'EUR',
  duration: 'once' as 'once' | 'repeating' | 'forever', duration_in_months: '', month: true, year: true, first_time_only: false, max_redemptions: '', expires_at: '', active: true,
};
type CreateForm = typeof EMPTY_FORM;

function validateCreate(f: CreateForm): Problems {
  const p: Problems = {};
  if (!CODE.test(f.code.trim())) p.code = '3 to 40 letters, digits, - or _, starting with a letter or digit';
  if (f.description.length > 500) p.description = 'At most 500 characters';
  if (f.discount_type === 'percent') {
    const n = Number(f.percent_off);
    if (!f.percent_off.trim() || !Number.isFinite(n) || n <= 0 || n > 100) p.percent_off = 'A percentage above 0 and at most 100';
  } else {
    if (!/^\d+(\.\d{1,2})?$/.test(f.amount_off.trim()) || Number(f.amount_off) <= 0 || Number(f.amount_off) > 100_000) p.amount_off = 'An amount above 0 with at most two decimals (at most 100000)';
    if (!/^[A-Za-z]{3}$/.test(f.currency.trim())) p.currency = 'A three-letter currency code, e.g. EUR';
  }
  if (f.duration === 'repeating' && !isWhole(f.duration_in_months, 1, 36)) p.duration_in_months = 'A whole number of months from 1 to 36';
  if (!f.month && !f.year) p.intervals = 'Choose at least one billing period';
  if (f.max_redemptions && !isWhole(f.max_redemptions, 1, 1_000_000)) p.max_redemptions = 'A whole number from 1 to 1000000, or empty for no limit';
  if (f.expires_at && !(new Date(f.expires_at).getTime() > Date.now())) p.expires_at = 'A time in the future, or empty for no expiry';
  return p;
}

function toCreateBody(f: CreateForm): PromoCreate {
  return {
    code: f.code.trim(),
    ...(f.description.trim() ? { description: f.description.trim() } : {}),
    discount_type: f.discount_type,
    ...(f.discount_type === 'percent' ? { percent_off: Number(f.percent_off) } : { amount_off: Math.round(Number(f.amount_off) * 100), currency: f.currency.trim().toLowerCase() }),
    duration: f.duration,
    ...(f.duration === 'repeating' ? { duration_in_months: Number(f.duration_in_months) } : {}),
    // Both periods checked: the code applies to any (no restriction stored).
    ...(f.month && f.year ? {} : { intervals: [f.month ? 'month' : 'year'] }),
    first_time_only: f.first_time_only,
    ...(f.max_redemptions ? { max_redemptions: Number(f.max_redemptions) } : {}),
    ...(f.expires_at ? { expires_at: fromLocalInput(f.expires_at) } : {}),
    active: f.active,
  };
}

function NewPromo({ onCreated }: { onCreated: (p: Promo) => void }) {
  const [f, setF] = useState(EMPTY_FORM);
  const [problems, setProblems] = useState<Problems>({});
  const set = (patch: Partial<CreateForm>) => setF({ ...f, ...patch });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/payments/admin/promo-codes', { body: toCreateBody(f) })),
    onSuccess: (p) => { setF(EMPTY_FORM); onCreated(p); },
  });
  return (
    // Folded away until needed: the list is what an administrator usually comes for.
    <details className="card">
      <summary style={{ cursor: 'pointer', fontWeight: 600 }}>New promo code</summary>
      <form aria-label="New promo code" noValidate onSubmit={(e) => {
        e.preventDefault();
        const p = validateCreate(f);
        setProblems(p);
        if (Object.keys(p).length === 0) create.mutate();
      }}>
        <p className="hint">{IMMUTABLE_NOTE}</p>
        <div className="grid2">
          <Field id="pc-code" label="Code" problem={problems.code} hint="Stored in capitals; unique regardless of case">
            {(a) => <input {...a} value={f.code} maxLength={40} autoComplete="off" onChange={(e) => set({ code: e.target.value })} />}
          </Field>
          <Field id="pc-description" label="Description (optional)" problem={problems.description}>
            {(a) => <input {...a} value={f.description} maxLength={500} onChange={(e) => set({ description: e.target.value })} />}
          </Field>
          <Field id="pc-type" label="Discount">
            {(a) => (
              <select {...a} value={f.discount_type} onChange={(e) => set({ discount_type: e.target.value as CreateForm['discount_type'] })}>
                <option value="percent">Percentage</option><option value="amount">Fixed amount</option>
              </select>
            )}
          </Field>
          {f.discount_type === 'percent' ? (
            <Field id="pc-percent" label="Percent off" problem={problems.percent_off}>
              {(a) => <input {...a} inputMode="decimal" value={f.percent_off} onChange={(e) => set({ percent_off: e.target.value })} />}
            </Field>
          ) : (
            <div className="row" style={{ alignItems: 'flex-start' }}>
              <div style={{ flex: 2 }}><Field id="pc-amount" label="Amount off" problem={problems.amount_off}>{(a) => <input {...a} inputMode="decimal" value={f.amount_off} onChange={(e) => set({ amount_off: e.target.value })} />}</Field></div>
              <div style={{ flex: 1 }}><Field id="pc-currency" label="Currency" problem={problems.currency}>{(a) => <input {...a} value={f.currency} maxLength={3} onChange={(e) => set({ currency: e.target.value })} />}</Field></div>
            </div>
          )}
          <Field id="pc-duration" label="Duration">
            {(a) => (
              <select {...a} value={f.duration} onChange={(e) => set({ duration: e.target.value as CreateForm['duration'] })}>
                <option value="once">First payment only</option><option value="repeating">A number of months</option><option value="forever">Every payment</option>
              </select>
            )}
          </Field>
          {f.duration === 'repeating' ? (
            <Field id="pc-months" label="Months" problem={problems.duration_in_months}>
              {(a) => <input {...a} inputMode="numeric" value={f.duration_in_months} onChange={(e) => set({ duration_in_months: e.target.value })} />}
            </Field>
          ) : <div />}
          <Field id="pc-max" label="Maximum redemptions (optional)" problem={problems.max_redemptions} hint="Empty: no limit">
            {(a) => <input {...a} inputMode="numeric" value={f.max_redemptions} onChange={(e) => set({ max_redemptions: e.target.value })} />}
          </Field>
          <Field id="pc-expires" label="Expires (optional)" problem={problems.expires_at} hint="Your local time; empty: never">
            {(a) => <input {...a} type="datetime-local" value={f.expires_at} onChange={(e) => set({ expires_at: e.target.value })} />}
          </Field>
        </div>
        <fieldset style={{ border: 0, padding: 0, margin: '.6rem 0 0' }} aria-describedby={problems.intervals ? 'pc-intervals-err' : undefined}>
          <legend style={{ fontWeight: 600 }}>Billing periods</legend>
          <div className="row">
            <label style={{ fontWeight: 400, margin: 0 }}><input type="checkbox" checked={f.month} onChange={(e) => set({ month: e.target.checked })} /> Monthly</label>
            <label style={{ fontWeight: 400, margin: 0 }}><input type="checkbox" checked={f.year} onChange={(e) => set({ year: e.target.checked })} /> Yearly</label>
          </div>
          {problems.intervals ? <p id="pc-intervals-err" className="error" style={{ margin: '.2rem 0 0' }}>{problems.intervals}</p> : null}
        </fieldset>
        <div className="row" style={{ margin: '.6rem 0' }}>
          <label style={{ fontWeight: 400, margin: 0 }}><input type="checkbox" checked={f.first_time_only} onChange={(e) => set({ first_time_only: e.target.checked })} /> First-time customers only</label>
          <label style={{ fontWeight: 400, margin: 0 }}><input type="checkbox" checked={f.active} onChange={(e) => set({ active: e.target.checked })} /> Active right away</label>
        </div>
        <ErrorBox error={create.error} title="Not created" />
        <button type="submit" disabled={create.isPending}>{create.isPending ? 'Creating…' : 'Create promo code'}</button>
      </form>
    </details>
  );
}

/** Description, expiry and the redemption limit: the only fields that can change. */
function EditPromo({ p, onSaved, onCancel }: { p: Promo; onSaved: (p: Promo) => void; onCancel: () => void }) {
  const [description, setDescription] = useState(p.description);
  const [expires, setExpires] = useState(toLocalInput(p.expires_at));
  const [max, setMax] = useState(p.max_redemptions === null ? '' : String(p.max_redemptions));
  const [problems, setProblems] = useState<Problems>({});
  const save = useMutation({
    mutationFn: (body: PromoUpdate) => unwrap(api.PATCH('/api/payments/admin/promo-codes/{promo_id}', { params: { path: { promo_id: p.id } }, body })),
    onSuccess: onSaved,
  });
  const id = `pe-${p.id}`;
  return (
    <form aria-label={`Edit ${p.code}`} noValidate onSubmit={(e) => {
      e.preventDefault();
      const problems: Problems = {};
      if (description.length > 500) problems.description = 'At most 500 characters';
      if (max && !isWhole(max, 1, 1_000_000)) problems.max = 'A whole number from 1 to 1000000, or empty for no limit';
      if (expires && Number.isNaN(new Date(expires).getTime())) problems.expires = 'A date and time, or empty for no expiry';
      setProblems(problems);
      if (Object.keys(problems).length) return;
      const body: PromoUpdate = {};
      if (description !== p.description) body.description = description;
      if (expires !== toLocalInput(p.expires_at)) body.expires_at = expires ? fromLocalInput(expires) : null;
      if (max !== (p.max_redemptions === null ? '' : String(p.max_redemptions))) body.max_redemptions = max ? Number(max) : null;
      if (Object.keys(body).length === 0) onCancel();
      else save.mutate(body);
    }}>
      <p className="hint">{discountText(p.discount)}. {IMMUTABLE_NOTE}</p>
      <div className="grid2">
        <Field id={`${id}-description`} label="Description" problem={problems.description}>
          {(a) => <input {...a} value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <Field id={`${id}-max`} label="Maximum redemptions" problem={problems.max} hint={`Used ${p.times_redeemed} times; empty: no limit`}>
          {(a) => <input {...a} inputMode="numeric" value={max} onChange={(e) => setMax(e.target.value)} />}
        </Field>
        <Field id={`${id}-expires`} label="Expires" problem={problems.expires} hint="Your local time; empty: never">
          {(a) => <input {...a} type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
      </div>
      <ErrorBox error={save.error} title="Not saved" />
      <div className="row" style={{ marginTop: '.6rem' }}>
        <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save changes'}</button>
        <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

function Status({ p }: { p: Promo }) {
  if (!p.active) return <span className="tag rejected">inactive</span>;
  // Expiry depends on the clock: read at every render, on purpose (nothing here is memoised).
  // eslint-disable-next-line react-hooks/purity
  if (p.expires_at && new Date(p.expires_at).getTime() <= Date.now()) return <span className="tag pending">expired</span>;
  if (p.max_redemptions !== null && p.times_redeemed >= p.max_redemptions) return <span className="tag pending">used up</span>;
  return <span className="tag approved">active</span>;
}

export default function AdminPromos() {
  useTitle('Promo codes (admin)');

  const search = useSearch({ from: '/admin/admin/promo-codes' });
  const navigate = useNavigate({ from: '/admin/promo-codes' });
  const [q, setQ] = useState(search.q ?? '');
  const [editing, setEditing] = useState<number | null>(null);
  const [created, setCreated] = useState('');
  const qc = useQueryClient();
  const [toast, say] = useToast();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['admin-promos'] });
  const list = useInfiniteQuery({
    queryKey: ['admin-promos', search.q, search.active],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/api/payments/admin/promo-codes', {
      params: { query: { limit: 25, ...(search.q ? { q: search.q } : {}), ...(search.active !== undefined ? { active: search.active } : {}), ...(pageParam ? { cursor: pageParam } : {}) } },
    })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const toggle = useMutation({
    mutationFn: (p: Promo) => unwrap(api.PATCH('/api/payments/admin/promo-codes/{promo_id}', { params: { path: { promo_id: p.id } }, body: { active: !p.active } })),
    onSuccess: (p) => { setCreated(''); say(`${p.code} ${p.active ? 'activated' : 'deactivated'}`); refresh(); },
  });
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = !!search.q || search.active !== undefined;
  return (
    <>
      {toast}
      <h1>Promo codes</h1>
      <NewPromo onCreated={(p) => { setCreated(`Promo code ${p.code} created.`); refresh(); }} />
      <Success>{created}</Success>
      <h2>Codes</h2>
      <form className="row card" role="search" onSubmit={(e) => { e.preventDefault(); void navigate({ search: { ...search, q: q.trim() || undefined } }); }}>
        <div style={{ flex: 1, minWidth: '12rem' }}><label htmlFor="pq">Search by code</label><input id="pq" type="search" value={q} onChange={(e) => setQ(e.target.value)} /></div>
        <div><label htmlFor="pactive">Status</label>
          <select
            id="pactive"
            value={search.active === undefined ? '' : String(search.active)}
            onChange={(e) => void navigate({ search: { ...search, active: e.target.value === '' ? undefined : e.target.value === 'true' } })}
          >
            <option value="">All</option><option value="true">Active</option><option value="false">Inactive</option>
          </select>
        </div>
        <button type="submit" style={{ alignSelf: 'flex-end' }}>Search</button>
      </form>
      <ErrorBox error={toggle.error} />
      {list.isPending ? <Loading what="Loading promo codes" /> : list.error ? <ErrorBox error={list.error} /> : rows.length === 0 ? <Empty>{filtered ? 'No promo codes match.' : 'No promo codes yet: create the first one under “New promo code” above.'}</Empty> : (
        <>
          <table className="responsive">
            <thead><tr><th scope="col">Code</th><th scope="col">Discount</th><th scope="col">Limits</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
            <tbody>{rows.map((p) => (
              <Fragment key={p.id}>
                <tr>
                  <td><strong>{p.code}</strong>{p.description ? <div className="hint">{p.description}</div> : null}<div className="hint">created {fmtDate(p.created_at)}</div></td>
                  <td>{discountText(p.discount)}{p.intervals ? <div className="hint">{p.intervals.join(' and ')} billing only</div> : null}</td>
                  <td>
                    {p.max_redemptions === null ? `${p.times_redeemed} used, no limit` : `${p.times_redeemed} of ${p.max_redemptions} used`}
                    <div className="hint">{p.expires_at ? `expires ${fmtDate(p.expires_at)}` : 'no expiry'}{p.first_time_only ? ' · first-time customers only' : ''}</div>
                  </td>
                  <td><Status p={p} /></td>
                  <td>
                    <div className="row">
                      <button type="button" className="secondary" aria-expanded={editing === p.id} onClick={() => setEditing(editing === p.id ? null : p.id)}>Edit<span className="skip"> {p.code}</span></button>
                      {p.active ? (
                        <ConfirmButton label="Deactivate" title={`Deactivate ${p.code}?`} danger disabled={toggle.isPending}
                          body={<p>New checkouts can no longer use it. You can reactivate it later.</p>} onConfirm={() => toggle.mutate(p)} />
                      ) : (
                        <button type="button" className="secondary" disabled={toggle.isPending} onClick={() => toggle.mutate(p)}>Activate<span className="skip"> {p.code}</span></button>
                      )}
                    </div>
                  </td>
                </tr>
                {editing === p.id ? (
                  <tr><td colSpan={5}><EditPromo p={p} onCancel={() => setEditing(null)} onSaved={(saved) => { setEditing(null); setCreated(''); say(`${saved.code} saved`); refresh(); }} /></td></tr>
                ) : null}
              </Fragment>
            ))}</tbody>
          </table>
          {list.hasNextPage ? (
            <button type="button" className="secondary" style={{ marginTop: '1rem' }} onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          ) : null}
        </>
      )}
    </>
  );
}
