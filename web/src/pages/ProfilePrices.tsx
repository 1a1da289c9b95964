import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ErrorBox, Success } from '../ui';

// The profile page's prices: the company's price range and the prices of single services (both saved with PUT /api/tools/{tool_id}).
type Tool = components['schemas']['ToolDetailResponse'];
type ServicePrice = components['schemas']['ServicePrice'];

const PRICE_UNITS = ['hour', 'day', 'job', 'visit', 'project', 'month', 'year', 'person', 'night', 'item'] as const;
const COMMON_CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'JPY', 'INR', 'SGD', 'AED', 'ZAR', 'BRL', 'MXN', 'NZD'] as const;
type Price = { from: number; to?: number; currency: string; unit: (typeof PRICE_UNITS)[number] };

/** The common currencies, and the one stored when it is another (a crawl may read HKD): a select must show what is saved. */
function currencyOptions(current: string) {
  const list: readonly string[] = COMMON_CURRENCIES.includes(current as (typeof COMMON_CURRENCIES)[number]) || !current ? COMMON_CURRENCIES : [current, ...COMMON_CURRENCIES];
  return list.map((c) => <option key={c} value={c}>{c}</option>);
}

/** What the company charges: from (and to), a currency and what the price is per. */
export function PriceForm({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const current = (tool.price_range ?? null) as Price | null;
  const initial = () => ({ from: current ? String(current.from) : '', to: current?.to !== undefined ? String(current.to) : '', currency: current?.currency ?? 'EUR', unit: current?.unit ?? 'hour' });
  const [f, setF] = useState(initial);
  const [shown, setShown] = useState(tool.updated_at);
  if (shown !== tool.updated_at) {
    setShown(tool.updated_at);
    setF(initial());
  }
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: (clear: boolean) => unwrap(api.PUT('/api/tools/{tool_id}', { params: { path: { tool_id: tool.id } }, body: { price_range: clear ? null : { from: Number(f.from), ...(f.to ? { to: Number(f.to) } : {}), currency: f.currency, unit: f.unit } } })),
    onSuccess: (t) => qc.setQueryData(['tool', tool.id], t),
  });
  const submit = () => {
    const amount = /^\d+(\.\d{1,2})?$/;
    if (!amount.test(f.from)) return setProblem('Enter the lowest price as a number, for example 50 or 49.90');
    if (f.to && (!amount.test(f.to) || Number(f.to) < Number(f.from))) return setProblem('The highest price should be a number no lower than the lowest');
    setProblem('');
    save.mutate(false);
  };
  return (
    <form className="card" aria-labelledby="price-h" onSubmit={(e) => { e.preventDefault(); submit(); }} noValidate>
      <h2 id="price-h">Prices</h2>
      <p className="hint">AI assistants use this to choose within a customer's budget. Leave "Up to" empty for a "from" price.</p>
      <div className="grid2">
        <div><label htmlFor="p-from">From</label><input id="p-from" inputMode="decimal" value={f.from} aria-invalid={problem ? true : undefined} aria-describedby={problem ? 'p-error' : undefined} onChange={(e) => setF({ ...f, from: e.target.value })} /></div>
        <div><label htmlFor="p-to">Up to (optional)</label><input id="p-to" inputMode="decimal" value={f.to} onChange={(e) => setF({ ...f, to: e.target.value })} /></div>
        <div><label htmlFor="p-currency">Currency</label><select id="p-currency" value={f.currency} onChange={(e) => setF({ ...f, currency: e.target.value })}>{currencyOptions(f.currency)}</select></div>
        <div><label htmlFor="p-unit">Per</label><select id="p-unit" value={f.unit} onChange={(e) => setF({ ...f, unit: e.target.value as Price['unit'] })}>{PRICE_UNITS.map((u) => <option key={u} value={u}>{u}</option>)}</select></div>
      </div>
      {problem ? <p id="p-error" className="error">{problem}</p> : null}
      <ErrorBox error={save.error} />
      <Success>{save.isSuccess ? 'Prices saved.' : null}</Success>
      <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save prices'}</button>{' '}
      {current ? <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate(true)}>Remove prices</button> : null}
    </form>
  );
}

const MAX_SERVICE_PRICES = 30;
interface ServiceRow { service: string; from: string; to: string; currency: string; unit: Price['unit'] }
const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** The problem of the first row that has one, as the owner reads it (the row's number and name); '' when every row is fine. */
function rowProblem(rows: ServiceRow[]): string {
  const seen = new Map<string, number>();
  for (const [i, r] of rows.entries()) {
    const which = `Row ${i + 1}${r.service.trim() ? ` (${r.service.trim()})` : ''}`;
    if (!r.service.trim()) return `${which}: name the service`;
    if (!AMOUNT.test(r.from)) return `${which}: enter the price as a number, for example 80 or 49.90`;
    if (r.to && (!AMOUNT.test(r.to) || Number(r.to) < Number(r.from))) return `${which}: "up to" should be a number no lower than the price`;
    const key = r.service.trim().toLowerCase();
    if (seen.has(key)) return `${which}: the service is listed twice (also in row ${seen.get(key)! + 1})`;
    seen.set(key, i);
  }
  return '';
}

/** Prices of single services: one row each (service, price, optionally up to, currency, per), saved as the whole list. */
export function ServicePricesForm({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const current: ServicePrice[] = tool.service_prices ?? [];
  const rowsOf = (list: ServicePrice[]): ServiceRow[] => list.map((s) => ({ service: s.service, from: String(s.from), to: s.to !== undefined ? String(s.to) : '', currency: s.currency, unit: s.unit }));
  const [rows, setRows] = useState(() => rowsOf(current));
  // The profile changed on the server (this save, an AI edit, a crawl): the rows follow it (derived during render).
  const [shown, setShown] = useState(tool.updated_at);
  if (shown !== tool.updated_at) {
    setShown(tool.updated_at);
    setRows(rowsOf(current));
  }
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: (list: ServiceRow[]) => unwrap(api.PUT('/api/tools/{tool_id}', {
      params: { path: { tool_id: tool.id } },
      body: { service_prices: list.map((r) => ({ service: r.service.trim(), from: Number(r.from), ...(r.to ? { to: Number(r.to) } : {}), currency: r.currency, unit: r.unit })) },
    })),
    onSuccess: (t) => qc.setQueryData(['tool', tool.id], t),
  });
  const set = (i: number, patch: Partial<ServiceRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const add = () => setRows([...rows, { service: '', from: '', to: '', currency: rows[rows.length - 1]?.currency ?? tool.price_range?.currency ?? 'EUR', unit: rows[rows.length - 1]?.unit ?? 'job' }]);
  const submit = () => {
    const p = rowProblem(rows);
    setProblem(p);
    if (!p) save.mutate(rows);
  };
  const label = (i: number, r: ServiceRow) => `row ${i + 1}${r.service.trim() ? `, ${r.service.trim()}` : ''}`;
  return (
    <form className="card" aria-labelledby="sp-h" onSubmit={(e) => { e.preventDefault(); submit(); }} noValidate>
      <h2 id="sp-h">Prices per service</h2>
      <p className="hint">What single services cost, as on your price list (at most {MAX_SERVICE_PRICES}). AI assistants quote them to customers. Leave "Up to" empty for a single or "from" price.</p>
      {rows.length === 0 ? <p className="hint">No services priced yet.</p> : (
        <table className="hours-edit">
          <caption className="visually-hidden">Prices per service</caption>
          <thead><tr><th scope="col">Service</th><th scope="col">Price</th><th scope="col">Up to (optional)</th><th scope="col">Currency</th><th scope="col">Per</th><th scope="col"><span className="visually-hidden">Remove</span></th></tr></thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td><input aria-label={`Service, row ${i + 1}`} maxLength={120} value={r.service} onChange={(e) => set(i, { service: e.target.value })} /></td>
                <td><input aria-label={`Price, ${label(i, r)}`} inputMode="decimal" size={8} value={r.from} onChange={(e) => set(i, { from: e.target.value })} /></td>
                <td><input aria-label={`Up to, ${label(i, r)}`} inputMode="decimal" size={8} value={r.to} onChange={(e) => set(i, { to: e.target.value })} /></td>
                <td><select aria-label={`Currency, ${label(i, r)}`} value={r.currency} onChange={(e) => set(i, { currency: e.target.value })}>{currencyOptions(r.currency)}</select></td>
                <td><select aria-label={`Per, ${label(i, r)}`} value={r.unit} onChange={(e) => set(i, { unit: e.target.value as Price['unit'] })}>{PRICE_UNITS.map((u) => <option key={u} value={u}>{u}</option>)}</select></td>
                <td><button type="button" className="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>Remove<span className="visually-hidden"> {label(i, r)}</span></button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p><button type="button" className="secondary" disabled={rows.length >= MAX_SERVICE_PRICES} onClick={add}>Add a service</button></p>
      {problem ? <p className="error" role="alert">{problem}</p> : null}
      <ErrorBox error={save.error} />
      <Success>{save.isSuccess ? 'Prices per service saved.' : null}</Success>
      <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save prices per service'}</button>{' '}
      {current.length ? <button type="button" className="secondary" disabled={save.isPending} onClick={() => { setProblem(''); save.mutate([]); }}>Remove all</button> : null}
    </form>
  );
}
