import { useId, useState } from 'react';

// A list of short texts (keywords, services) edited one item at a time: type and press Enter or "Add"; each item has
// its own remove button. A pasted comma-separated list becomes several items (items may still contain commas when added one by one).
export function ListEditor({ label, hint, value, onChange, max = 50, maxLength = 100 }: {
  label: string;
  hint?: string;
  value: string[];
  onChange: (items: string[]) => void;
  max?: number;
  maxLength?: number;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const add = (raw: string, split: boolean) => {
    const parts = (split ? raw.split(',') : [raw]).map((x) => x.trim()).filter(Boolean);
    if (!parts.length) return;
    const seen = new Set(value.map((v) => v.toLowerCase()));
    const fresh = parts.filter((p) => !seen.has(p.toLowerCase()) && (seen.add(p.toLowerCase()), true)).map((p) => p.slice(0, maxLength));
    const room = Math.max(0, max - value.length);
    if (fresh.length === 0) setNote(`${parts.length === 1 ? `“${parts[0]}” is` : 'These are'} already in the list.`);
    else if (fresh.length > room) setNote(`At most ${max} items: ${fresh.length - room} not added.`);
    else setNote('');
    if (fresh.length && room) onChange([...value, ...fresh.slice(0, room)]);
    setText('');
  };
  return (
    <fieldset className="list-editor">
      <legend>{label}</legend>
      {hint ? <p className="hint" id={`${id}-hint`}>{hint}</p> : null}
      {value.length ? (
        <ul className="chips" aria-label={label}>
          {value.map((item) => (
            <li key={item} className="chip">
              <span>{item}</span>
              <button type="button" className="chip-remove" aria-label={`Remove ${item}`} onClick={() => { setNote(''); onChange(value.filter((v) => v !== item)); }}>×</button>
            </li>
          ))}
        </ul>
      ) : <p className="hint">None yet.</p>}
      <div className="row">
        <label className="visually-hidden" htmlFor={`${id}-new`}>Add to {label.toLowerCase()}</label>
        <input id={`${id}-new`} value={text} maxLength={maxLength * 10} placeholder={`Add to ${label.toLowerCase()}`} aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(text, false); } }}
          onPaste={(e) => { const pasted = e.clipboardData.getData('text'); if (pasted.includes(',')) { e.preventDefault(); add(pasted, true); } }} />
        <button type="button" className="secondary" onClick={() => add(text, false)} disabled={!text.trim()}>Add</button>
      </div>
      <p className="hint" role="status">{note}</p>
    </fieldset>
  );
}
