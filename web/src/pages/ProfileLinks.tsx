import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ErrorBox, Success } from '../ui';

// The profile page's social links: one address per network, checked before saving (agents and the public page link them).
type Tool = components['schemas']['ToolDetailResponse'];

const NETWORKS = [
  ['linkedin', 'LinkedIn'], ['facebook', 'Facebook'], ['instagram', 'Instagram'], ['twitter', 'X (Twitter)'], ['youtube', 'YouTube'],
  ['tiktok', 'TikTok'], ['xing', 'XING'], ['github', 'GitHub'], ['pinterest', 'Pinterest'], ['mastodon', 'Mastodon'],
] as const;

export function SocialLinksForm({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  // What the owner typed over the saved links (an empty string removes one); the rest follows the profile as it changes.
  const [draft, setDraft] = useState<Record<string, string>>({});
  const links: Record<string, string> = { ...tool.social_links, ...draft };
  const [problems, setProblems] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: Record<string, string>) => unwrap(api.PUT('/api/tools/{tool_id}', { params: { path: { tool_id: tool.id } }, body: { social_links: body } })),
    onSuccess: (t) => {
      qc.setQueryData(['tool', tool.id], t);
      setDraft({});
    },
  });
  // Networks the owner set that this list does not name (read by a crawl, say) are kept as they are.
  const others = Object.keys(links).filter((k) => !NETWORKS.some(([n]) => n === k));
  const submit = () => {
    const p: Record<string, string> = {};
    const body: Record<string, string> = {};
    for (const [k, v] of Object.entries(links)) {
      const url = v.trim();
      if (!url) continue;
      if (!/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(url)) p[k] = 'Paste the whole address, starting with https://';
      body[k] = url;
    }
    setProblems(p);
    if (Object.keys(p).length === 0) save.mutate(body);
  };
  const row = (key: string, label: string) => (
    <div key={key}>
      <label htmlFor={`social-${key}`}>{label}</label>
      <input id={`social-${key}`} type="url" inputMode="url" placeholder="https://" value={links[key] ?? ''} aria-invalid={problems[key] ? true : undefined}
        aria-describedby={problems[key] ? `social-${key}-e` : undefined} onChange={(e) => { save.reset(); setDraft({ ...draft, [key]: e.target.value }); }} />
      {problems[key] ? <p id={`social-${key}-e`} className="error">{problems[key]}</p> : null}
    </div>
  );
  return (
    <form className="card" aria-labelledby="social-h" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <h2 id="social-h">Social links</h2>
      <p className="hint">Where people and AI assistants find you elsewhere. Leave a network empty to remove it.</p>
      <div className="grid2">
        {NETWORKS.map(([k, l]) => row(k, l))}
        {others.map((k) => row(k, k))}
      </div>
      <ErrorBox error={save.error} />
      <Success>{save.isSuccess ? 'Social links saved.' : null}</Success>
      <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save social links'}</button>
    </form>
  );
}
