import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from './api/client';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p role="status" aria-live="polite">{what}…</p>;
}

export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const msg = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  return (
    <div className="alert error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {msg}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="hint" data-testid="empty">{children}</p>;
}

export function Success({ children }: { children: ReactNode }) {
  return children ? <div className="alert ok" role="status">{children}</div> : null;
}

/** A one-line status announced to screen readers, cleared after a while. */
export function useToast(): [ReactNode, (msg: string) => void] {
  const [msg, setMsg] = useState('');
  useEffect(() => {
    if (!msg) return;
    const t = setTimeout(() => setMsg(''), 5000);
    return () => clearTimeout(t);
  }, [msg]);
  const node = (
    <div aria-live="polite" role="status">
      {msg ? <div className="toast">{msg}</div> : null}
    </div>
  );
  return [node, setMsg];
}

/**
 * A confirmation in a native modal <dialog>: the browser traps focus inside it, Escape cancels,
 * and focus goes back to the button that opened it. With `typed`, the user must type that text.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  body?: ReactNode;
  confirmLabel?: string;
  /** The safe way out (default "Go back"): it has the focus when the dialog opens, so Enter never destroys. */
  cancelLabel?: string;
  typed?: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [text, setText] = useState('');
  const uid = useId();
  const close = () => {
    ref.current?.close();
    opener.current?.focus();
  };
  const ok = !props.typed || text === props.typed;
  return (
    <>
      <button ref={opener} type="button" className={props.danger ? 'danger' : 'secondary'} disabled={props.disabled} onClick={() => { setText(''); ref.current?.showModal(); }}>
        {props.label}
      </button>
      <dialog ref={ref} aria-labelledby={`${uid}-h`} onClose={() => opener.current?.focus()}>
        <form method="dialog" onSubmit={(e) => { e.preventDefault(); e.stopPropagation(); if (!ok) return; close(); props.onConfirm(); }}>
          <h2 id={`${uid}-h`}>{props.title}</h2>
          {props.body}
          {props.typed ? (
            <>
              <label htmlFor={`${uid}-typed`}>Type <code>{props.typed}</code> to confirm</label>
              <input id={`${uid}-typed`} value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" autoFocus />
            </>
          ) : null}
          <div className="row" style={{ marginTop: '1rem' }}>
            <button type="button" className="secondary" onClick={close} autoFocus={!props.typed}>{props.cancelLabel ?? 'Go back'}</button>
            <button type="submit" className={props.danger ? 'danger' : ''} disabled={!ok}>{props.confirmLabel ?? props.label}</button>
          </div>
        </form>
      </dialog>
    </>
  );
}

export const fmtDate = (s: string | null | undefined) => (s ? new Date(s).toLocaleString() : '—');

/** Each screen names the tab (WCAG 2.4.2). */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · AgentPages`;
  }, [title]);
}
