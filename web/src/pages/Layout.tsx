import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { api, isUnauthorized, unwrap } from '../api/client';
import { ErrorBox, Loading } from '../ui';

export function useOwner() {
  return useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/auth/me')), staleTime: 60_000 });
}

/** Pending proposals: the inbox's "unread" count in the navigation. */
export function usePendingCount(enabled: boolean) {
  return useQuery({
    queryKey: ['proposals', 'pending-count'],
    queryFn: async () => (await unwrap(api.GET('/api/proposals', { params: { query: { status: 'pending', limit: 1 } } }))).total,
    enabled,
    refetchInterval: 60_000,
  });
}

/** After an in-app navigation, focus moves to the new screen (screen readers announce it; Tab starts there). */
function Main() {
  const ref = useRef<HTMLElement>(null);
  const path = useLocation({ select: (l) => l.pathname });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    ref.current?.focus();
  }, [path]);
  return <main id="main" ref={ref} tabIndex={-1}><Outlet /></main>;
}

function SignOut({ admin }: { admin: boolean }) {
  const qc = useQueryClient();
  return (
    <button
      type="button"
      className="secondary"
      onClick={async () => {
        await (admin ? api.POST('/api/admin/logout') : api.POST('/api/auth/logout'));
        qc.clear();
        window.location.assign(admin ? '/admin/sign-in' : '/app/sign-in');
      }}
    >
      Sign out
    </button>
  );
}

export function OwnerLayout() {
  const me = useOwner();
  const pending = usePendingCount(me.isSuccess);
  if (me.isPending) return <main><Loading what="Checking your session" /></main>;
  if (me.error) {
    if (isUnauthorized(me.error)) return <Navigate to="/app/sign-in" />;
    return <main><h1>Dashboard</h1><ErrorBox error={me.error} /><p><a href="/admin/">Administrators: open the administration</a></p></main>;
  }
  return (
    <div className="shell">
      <a className="skip" href="#main">Skip to content</a>
      <nav className="nav" aria-label="Dashboard">
        <p className="brand">AgentPages</p>
        <Link to="/app" activeOptions={{ exact: true, includeSearch: false }}>My companies</Link>
        <Link to="/app/proposals" activeOptions={{ includeSearch: false }}>
          Proposals{pending.data ? <span className="badge" aria-label={`${pending.data} pending`}>{pending.data}</span> : null}
        </Link>
        <Link to="/app/billing" activeOptions={{ includeSearch: false }}>Billing</Link>
        <span className="hint" style={{ color: '#b8c4e0', display: 'block', marginTop: '1rem' }}>{me.data.user.email}</span>
        <SignOut admin={false} />
      </nav>
      <Main />
    </div>
  );
}

export function AdminLayout() {
  const me = useQuery({ queryKey: ['admin-me'], queryFn: () => unwrap(api.GET('/api/admin/me')), staleTime: 60_000 });
  if (me.isPending) return <main><Loading what="Checking your session" /></main>;
  if (me.error) {
    if (isUnauthorized(me.error)) return <Navigate to="/admin/sign-in" />;
    return <main><h1>Administration</h1><ErrorBox error={me.error} /></main>;
  }
  return (
    <div className="shell">
      <a className="skip" href="#main">Skip to content</a>
      <nav className="nav" aria-label="Administration">
        <p className="brand">AgentPages admin</p>
        <Link to="/admin" activeOptions={{ exact: true, includeSearch: false }}>Companies</Link>
        <Link to="/admin/agents" activeOptions={{ includeSearch: false }}>Agents</Link>
        <Link to="/admin/crawl" activeOptions={{ includeSearch: false }}>Crawl monitor</Link>
        <Link to="/admin/held" activeOptions={{ includeSearch: false }}>Values to confirm</Link>
        <Link to="/admin/subscriptions" activeOptions={{ includeSearch: false }}>Subscriptions</Link>
        <Link to="/admin/promo-codes" activeOptions={{ includeSearch: false }}>Promo codes</Link>
        <Link to="/admin/reindex" activeOptions={{ includeSearch: false }}>Reindex</Link>
        <Link to="/admin/reviews" activeOptions={{ includeSearch: false }}>Reported reviews</Link>
        <Link to="/admin/agent-reports" activeOptions={{ includeSearch: false }}>Reported agents</Link>
        <Link to="/admin/audit" activeOptions={{ includeSearch: false }}>Audit log</Link>
        <span className="hint" style={{ color: '#b8c4e0', display: 'block', marginTop: '1rem' }}>{me.data.admin.email}</span>
        <SignOut admin />
      </nav>
      <Main />
    </div>
  );
}
