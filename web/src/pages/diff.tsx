// What an edit changes, highlighted: words removed and added in a text, items removed and added in a list.

/** Field names as owners read them (the API's keys are for programs). */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name', category: 'Category', industry: 'Industry', description: 'Description', country: 'Country', city: 'City',
  address: 'Street address', service_type: 'How you serve customers', keywords: 'Keywords', services: 'Services', languages: 'Languages',
  contact_email: 'Email', phone: 'Phone', social_links: 'Social links', founded_year: 'Founded', opening_hours: 'Opening hours',
  price_range: 'Prices', service_prices: 'Prices per service',
};
export const fieldLabel = (field: string) => FIELD_LABELS[field] ?? field;

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A value as a sentence-like line, never raw JSON for the common shapes. */
export function valueText(field: string, v: unknown): string {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) return '(empty)';
  const price = (p: { from: number; to?: number | null; currency: string; unit: string }) => `${p.from}${p.to != null ? `–${p.to}` : ''} ${p.currency} per ${p.unit}`;
  if (field === 'service_prices' && Array.isArray(v)) return (v as { service: string; from: number; to?: number; currency: string; unit: string }[]).map((p) => `${p.service}: ${price(p)}`).join('; ');
  if (Array.isArray(v)) return v.join(', ');
  if (field === 'price_range' && typeof v === 'object') return price(v as { from: number; to?: number; currency: string; unit: string });
  if (field === 'opening_hours' && typeof v === 'object') {
    const h = v as Record<string, string[][] | undefined>;
    return DAYS.map((d) => `${d.slice(0, 3)} ${(h[d] ?? []).map((r) => r.join('–')).join(', ') || 'closed'}`).join('; ');
  }
  if (typeof v === 'object') return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}: ${String(x)}`).join(', ');
  return String(v);
}

type Piece = { text: string; kind: 'same' | 'del' | 'ins' };

/** Word-level difference by the longest common subsequence (spaces kept as their own tokens). */
function wordDiff(a: string, b: string): Piece[] {
  const x = a.split(/(\s+)/).filter(Boolean);
  const y = b.split(/(\s+)/).filter(Boolean);
  // Long texts compared word by word would cost n×m: beyond that, the whole text is one change.
  if (x.length * y.length > 1_000_000) return [{ text: a, kind: 'del' }, { text: b, kind: 'ins' }];
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint16Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Piece[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) { out.push({ text: x[i]!, kind: 'same' }); i++; j++; } else if (j < y.length && (i >= x.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) { out.push({ text: y[j]!, kind: 'ins' }); j++; } else { out.push({ text: x[i]!, kind: 'del' }); i++; }
  }
  return out;
}

const plain = (v: unknown) => (v === null || v === undefined || v === '' ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function Pieces({ pieces, side }: { pieces: Piece[]; side: 'before' | 'after' }) {
  const shown = pieces.filter((p) => p.kind === 'same' || (side === 'before' ? p.kind === 'del' : p.kind === 'ins'));
  if (!shown.some((p) => p.text.trim())) return <span className="hint">(empty)</span>;
  return <>{shown.map((p, k) => (p.kind === 'del' ? <del key={k}>{p.text}</del> : p.kind === 'ins' ? <ins key={k}>{p.text}</ins> : <span key={k}>{p.text}</span>))}</>;
}

/** The before and after cells of one field, the change highlighted on each side. */
export function DiffCells({ field, before, after }: { field: string; before: unknown; after: unknown }) {
  const listOfText = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
  if ((Array.isArray(before) || Array.isArray(after)) && listOfText(before) && listOfText(after)) {
    const a = (Array.isArray(before) ? before : []).map(plain);
    const b = (Array.isArray(after) ? after : []).map(plain);
    // Each side lists its own items: the removed ones struck through before, the new ones underlined after.
    const side = (items: string[], other: string[], changed: 'del' | 'ins') =>
      items.flatMap((t, k): Piece[] => [...(k ? [{ text: ', ', kind: 'same' as const }] : []), { text: t, kind: other.includes(t) ? 'same' : changed }]);
    return (
      <>
        <td><Pieces pieces={side(a, b, 'del')} side="before" /></td>
        <td><Pieces pieces={side(b, a, 'ins')} side="after" /></td>
      </>
    );
  }
  // Hours, prices and other structures: each side in words, the whole value marked as changed.
  const pieces: Piece[] = typeof before === 'object' || typeof after === 'object'
    ? [{ text: before == null ? '' : valueText(field, before), kind: 'del' }, { text: after == null ? '' : valueText(field, after), kind: 'ins' }]
    : wordDiff(plain(before), plain(after));
  return (
    <>
      <td><Pieces pieces={pieces} side="before" /></td>
      <td><Pieces pieces={pieces} side="after" /></td>
    </>
  );
}
