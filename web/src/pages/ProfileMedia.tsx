import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError, detailOf, CSRF_HEADER } from '../api/client';
import type { components } from '../api/schema';
import { Empty, ErrorBox, Success } from '../ui';

// The profile page's pictures: the logo and the photo gallery (multipart uploads: plain fetch with the CSRF header).
type Tool = components['schemas']['ToolDetailResponse'];

export function Logo({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const [preview, setPreview] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const upload = useMutation({
    mutationFn: async () => {
      const body = new FormData();
      body.append('file', file!);
      const r = await fetch(`/api/tools/${encodeURIComponent(tool.id)}/logo`, { method: 'POST', body, credentials: 'same-origin', headers: { [CSRF_HEADER]: '1' } });
      const data = await r.json().catch(() => undefined);
      if (!r.ok) throw new ApiError(detailOf(data, r.status), r.status);
      return data as { logo_url: string };
    },
    onSuccess: () => { setFile(null); void qc.invalidateQueries({ queryKey: ['tool', tool.id] }); },
  });
  return (
    <section className="card" aria-labelledby="logo-h">
      <h2 id="logo-h">Logo</h2>
      <div className="row">
        {preview || tool.logo_url ? <img src={preview ?? `${tool.logo_url}${tool.logo_url?.includes('?') ? '&' : '?'}v=${Date.parse(tool.updated_at)}`} alt={`${tool.name} logo`} width={96} height={96} style={{ objectFit: 'contain', border: '1px solid var(--border)', borderRadius: 8, background: '#fff' }} /> : <Empty>No logo yet.</Empty>}
      </div>
      <label htmlFor="logo">Image (PNG, JPEG, WebP or SVG, at most 2 MB)</label>
      <input id="logo" type="file" accept="image/png,image/jpeg,image/webp,image/svg+xml" aria-describedby={problem ? 'logo-err' : undefined} onChange={(e) => {
        const f = e.target.files?.[0] ?? null;
        setProblem('');
        upload.reset();
        if (f && f.size > 2 * 1024 * 1024) { setProblem('This file is over 2 MB.'); setFile(null); return; }
        setFile(f);
        setPreview(null);
        // A data: URL (the page's CSP allows data: images, not blob:).
        if (f) { const r = new FileReader(); r.onload = () => setPreview(String(r.result)); r.readAsDataURL(f); }
      }} />
      {problem ? <p id="logo-err" className="error" role="alert">{problem}</p> : null}
      <ErrorBox error={upload.error} />
      <Success>{upload.isSuccess ? 'Logo uploaded.' : null}</Success>
      <button type="button" onClick={() => upload.mutate()} disabled={!file || upload.isPending} style={{ marginTop: '.5rem' }}>Upload logo</button>
    </section>
  );
}

type Gallery = { photos: Tool['photos']; max_photos: number };

/** Sends a gallery change; the dashboard's session cookie and CSRF header, as for the logo. */
async function galleryCall(url: string, init: { method: string; body?: BodyInit; json?: unknown }): Promise<Gallery> {
  const headers: Record<string, string> = { [CSRF_HEADER]: '1' };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(url, { method: init.method, body: init.json !== undefined ? JSON.stringify(init.json) : init.body, credentials: 'same-origin', headers });
  const data = await r.json().catch(() => undefined);
  if (!r.ok) throw new ApiError(detailOf(data, r.status), r.status);
  return data as Gallery;
}

function PhotoItem({ tool, photo, index, count }: { tool: Tool; photo: Tool['photos'][number]; index: number; count: number }) {
  const qc = useQueryClient();
  const [caption, setCaption] = useState(photo.caption);
  const [confirming, setConfirming] = useState(false);
  const url = `/api/tools/${encodeURIComponent(tool.id)}/photos/${encodeURIComponent(photo.id)}`;
  const change = useMutation({
    mutationFn: (json: { caption?: string; position?: number } | null) => galleryCall(url, json ? { method: 'PATCH', json } : { method: 'DELETE' }),
    onSuccess: () => { setConfirming(false); void qc.invalidateQueries({ queryKey: ['tool', tool.id] }); void qc.invalidateQueries({ queryKey: ['history', tool.id] }); },
  });
  const label = photo.caption || `Photo ${index + 1}`;
  return (
    <li className="photo">
      <img src={photo.url} alt={photo.caption || `Photo ${index + 1} of ${count}`} width={160} height={120} style={{ objectFit: 'cover', borderRadius: 6, border: '1px solid var(--border)' }} />
      <label htmlFor={`cap-${photo.id}`}>Caption</label>
      <input id={`cap-${photo.id}`} value={caption} maxLength={200} onChange={(e) => setCaption(e.target.value)} />
      <div className="row" style={{ gap: '.4rem', marginTop: '.4rem', flexWrap: 'wrap' }}>
        <button type="button" className="secondary" disabled={change.isPending || caption.trim() === photo.caption} onClick={() => change.mutate({ caption: caption.trim() })}>Save caption</button>
        <button type="button" className="secondary" disabled={change.isPending || index === 0} onClick={() => change.mutate({ position: index - 1 })} aria-label={`Move ${label} earlier`}>Earlier</button>
        <button type="button" className="secondary" disabled={change.isPending || index === count - 1} onClick={() => change.mutate({ position: index + 1 })} aria-label={`Move ${label} later`}>Later</button>
        {confirming ? (
          <>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>Keep it</button>
            <button type="button" className="danger" disabled={change.isPending} onClick={() => change.mutate(null)}>Remove for good</button>
          </>
        ) : <button type="button" className="secondary" onClick={() => setConfirming(true)} aria-label={`Remove ${label}`}>Remove</button>}
      </div>
      <ErrorBox error={change.error} />
    </li>
  );
}

/** The gallery: photos shown on the public page and given to agents, in this order. */
export function Photos({ tool }: { tool: Tool }) {
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [problem, setProblem] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const max = 12;
  const upload = useMutation({
    mutationFn: () => {
      const body = new FormData();
      body.append('file', file!);
      if (caption.trim()) body.append('caption', caption.trim());
      return galleryCall(`/api/tools/${encodeURIComponent(tool.id)}/photos`, { method: 'POST', body });
    },
    onSuccess: () => {
      setFile(null);
      setCaption('');
      if (inputRef.current) inputRef.current.value = '';
      void qc.invalidateQueries({ queryKey: ['tool', tool.id] });
      void qc.invalidateQueries({ queryKey: ['history', tool.id] });
    },
  });
  const full = tool.photos.length >= max;
  return (
    <section className="card" aria-labelledby="photos-h">
      <h2 id="photos-h">Photos</h2>
      <p className="hint">Up to {max} photos of your work, your premises or your team. They appear on your public page and assistants can show them. We remove camera and location data from every photo.</p>
      {tool.photos.length === 0 ? <Empty>No photos yet.</Empty> : (
        <ul className="gallery-edit" style={{ listStyle: 'none', padding: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: '1rem' }}>
          {tool.photos.map((p, i) => <PhotoItem key={`${p.id}-${p.caption}`} tool={tool} photo={p} index={i} count={tool.photos.length} />)}
        </ul>
      )}
      {full ? <p className="hint">The gallery is full: remove a photo to add another.</p> : (
        <>
          <label htmlFor="photo-file">Add a photo (JPEG, PNG or WebP, at most 8 MB)</label>
          <input ref={inputRef} id="photo-file" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby={problem ? 'photo-err' : undefined} onChange={(e) => {
            const f = e.target.files?.[0] ?? null;
            setProblem('');
            upload.reset();
            if (f && f.size > 8 * 1024 * 1024) { setProblem('This file is over 8 MB.'); setFile(null); return; }
            setFile(f);
          }} />
          {problem ? <p id="photo-err" className="error" role="alert">{problem}</p> : null}
          <label htmlFor="photo-caption">Caption (optional)</label>
          <input id="photo-caption" value={caption} maxLength={200} onChange={(e) => setCaption(e.target.value)} placeholder="What the photo shows" />
          <ErrorBox error={upload.error} />
          <Success>{upload.isSuccess ? 'Photo added.' : null}</Success>
          <button type="button" onClick={() => upload.mutate()} disabled={!file || upload.isPending} style={{ marginTop: '.5rem' }}>Add photo</button>
        </>
      )}
    </section>
  );
}
