import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CompanyTabs } from './CompanyTabs';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ErrorBox, Loading, Success, useToast, useTitle } from '../ui';

type Config = components['schemas']['WidgetConfig'];

/** The form's fields for a stored configuration. */
const fieldsOf = (cfg: Config) => ({
  enabled: cfg.enabled, title: cfg.title, greeting: cfg.greeting, primary_color: cfg.primary_color, text_color: cfg.text_color,
  position: cfg.position as 'bottom-right' | 'bottom-left', origins: cfg.allowed_origins.join('\n'), show_branding: cfg.show_branding,
});

function Form({ id, cfg }: { id: string; cfg: Config }) {
  const qc = useQueryClient();
  // What visitors see when the title or greeting is left empty (the widget's own defaults, widget.public.ts).
  const tools = useQuery({ queryKey: ['my-tools'], queryFn: () => unwrap(api.GET('/api/tools/my-tools')) });
  const name = tools.data?.find((t) => t.id === id)?.name ?? 'your company';
  const defaultGreeting = `Hi! Ask me anything about ${name}.`;
  const [toast, say] = useToast();
  const [f, setF] = useState(() => fieldsOf(cfg));
  // A newly stored configuration (saved here, or reloaded) resets the fields: adjusted while rendering, not in an effect.
  const [shownVersion, setShownVersion] = useState(cfg.updated_at);
  if (shownVersion !== cfg.updated_at) {
    setShownVersion(cfg.updated_at);
    setF(fieldsOf(cfg));
  }
  const save = useMutation({
    mutationFn: () => unwrap(api.POST('/api/widget/company/{tool_id}', { params: { path: { tool_id: id } }, body: { enabled: f.enabled, title: f.title, greeting: f.greeting, primary_color: f.primary_color, text_color: f.text_color, position: f.position, allowed_origins: f.origins.split(/\s+/).filter(Boolean), show_branding: f.show_branding } })),
    onSuccess: (c) => qc.setQueryData(['widget', id], c),
  });
  return (
    <div className="grid2">
      <form className="card" aria-labelledby="wset-h" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
        <h2 id="wset-h">Settings</h2>
        <label style={{ fontWeight: 400 }}><input type="checkbox" checked={f.enabled} onChange={(e) => setF({ ...f, enabled: e.target.checked })} /> Widget enabled</label>
        <label htmlFor="w-title">Title</label>
        <input id="w-title" value={f.title} maxLength={80} placeholder={name} aria-describedby="w-title-h" onChange={(e) => setF({ ...f, title: e.target.value })} />
        <p id="w-title-h" className="hint">Left empty, visitors see your company&apos;s name.</p>
        <label htmlFor="w-greeting">Greeting</label>
        <textarea id="w-greeting" value={f.greeting} maxLength={500} placeholder={defaultGreeting} aria-describedby="w-greeting-h" onChange={(e) => setF({ ...f, greeting: e.target.value })} />
        <p id="w-greeting-h" className="hint">Left empty, visitors read: {defaultGreeting}</p>
        <div className="row">
          <div><label htmlFor="w-primary">Button colour</label><input id="w-primary" type="color" value={f.primary_color} onChange={(e) => setF({ ...f, primary_color: e.target.value })} /></div>
          <div><label htmlFor="w-text">Text colour</label><input id="w-text" type="color" value={f.text_color} onChange={(e) => setF({ ...f, text_color: e.target.value })} /></div>
          <div><label htmlFor="w-pos">Position</label>
            <select id="w-pos" value={f.position} onChange={(e) => setF({ ...f, position: e.target.value as typeof f.position })}>
              <option value="bottom-right">Bottom right</option><option value="bottom-left">Bottom left</option>
            </select></div>
        </div>
        <label htmlFor="w-origins">Allowed websites (one origin per line; empty = your company’s website)</label>
        <textarea id="w-origins" value={f.origins} onChange={(e) => setF({ ...f, origins: e.target.value })} placeholder="https://www.example.com" />
        <p className="hint">Effective: {cfg.effective_origins.join(', ') || '—'}</p>
        <label style={{ fontWeight: 400 }}><input type="checkbox" checked={f.show_branding} onChange={(e) => setF({ ...f, show_branding: e.target.checked })} /> Show the “Powered by” line</label>
        <p className="hint">Hiding it needs the pro plan.{!cfg.show_branding && cfg.branding_shown ? ' Your plan no longer includes it, so visitors see the line again.' : ''}</p>
        <ErrorBox error={save.error} />
        <Success>{save.isSuccess ? 'Widget settings saved.' : null}</Success>
        <button type="submit" disabled={save.isPending}>Save widget</button>
      </form>
      <div>
        <section className="card" aria-labelledby="wprev-h">
          <h2 id="wprev-h">Preview</h2>
          <div style={{ position: 'relative', height: '14rem', border: '1px dashed var(--border)', borderRadius: 8, background: '#fafbfc' }} aria-label="Widget preview">
            <div style={{ position: 'absolute', bottom: '4rem', [f.position === 'bottom-left' ? 'left' : 'right']: '1rem', background: '#fff', border: '1px solid var(--border)', borderRadius: 8, padding: '.5rem .75rem', maxWidth: '16rem' }}>
              <strong>{f.title || name}</strong><div className="hint">{f.greeting || defaultGreeting}</div>
            </div>
            <span style={{ position: 'absolute', bottom: '1rem', [f.position === 'bottom-left' ? 'left' : 'right']: '1rem', background: f.primary_color, color: f.text_color, borderRadius: 999, padding: '.5rem 1rem' }}>{f.enabled ? 'Ask us' : 'Disabled'}</span>
          </div>
        </section>
        <section className="card" aria-labelledby="wcode-h">
          {toast}
          <h2 id="wcode-h">Embed snippet</h2>
          <p className="hint">Paste this before &lt;/body&gt; on your website.</p>
          <pre className="code" data-testid="embed-code">{cfg.embed_code}</pre>
          <button type="button" onClick={async () => {
            try { await navigator.clipboard.writeText(cfg.embed_code); say('Snippet copied to the clipboard'); } catch { say('Copy failed: select the snippet and copy it by hand'); }
          }}>Copy snippet</button>
        </section>
      </div>
    </div>
  );
}

export default function Widget() {
  useTitle('Chat widget');

  const { id } = useParams({ from: '/owner/app/companies/$id/widget' });
  const cfg = useQuery({ queryKey: ['widget', id], queryFn: () => unwrap(api.GET('/api/widget/company/{tool_id}', { params: { path: { tool_id: id } } })) });
  return (
    <>
      <CompanyTabs id={id} />
      <h1>Chat widget</h1>
      {cfg.isPending ? <Loading /> : cfg.error ? <ErrorBox error={cfg.error} /> : <Form id={id} cfg={cfg.data} />}
    </>
  );
}
