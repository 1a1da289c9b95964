import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { ErrorBox, useTitle } from '../ui';

function SignInForm({ admin, claim }: { admin: boolean; claim?: string | undefined }) {
  useTitle(admin ? 'Administrator sign-in' : claim ? `Claim ${claim}` : 'Sign in');

  const [email, setEmail] = useState('');
  const config = useQuery({ queryKey: ['public-config'], queryFn: () => unwrap(api.GET('/api/public-config')), staleTime: Infinity });
  const send = useMutation({
    mutationFn: () =>
      admin ? unwrap(api.POST('/api/admin/magic-link/request', { body: { email } })) : unwrap(api.POST('/api/auth/magic-link', { body: claim ? { email, purpose: 'verify', website_url: claim } : { email, purpose: 'login' } })),
  });
  return (
    <main className="center" id="main">
      <div className="card">
        <h1>{admin ? 'Administrator sign-in' : claim ? `Claim ${claim}` : 'Sign in to AgentPages'}</h1>
        {send.isSuccess ? (
          <div role="status" className="alert ok">
            <strong>Check your mail.</strong> We sent a sign-in link to {email}. Open it on this device and press “Sign in”. The link works once.
            {config.data && !config.data.features.smtp ? <p>No mail server is configured here: the link is in the <a href="/dev/mailbox">developer mailbox</a> (this machine only).</p> : null}
          </div>
        ) : (
          <form onSubmit={(e) => { e.preventDefault(); send.mutate(); }}>
            <p className="hint">
              {admin
                ? 'We email administrators a single-use sign-in link.'
                : claim
                  ? `Enter your address at ${claim} (you@${claim}). We email you one link: opening it signs you in and makes you the owner of the listing. No password.`
                  : 'No password: we email you a single-use sign-in link. New here? The same link creates your account.'}
            </p>
            <label htmlFor="email">Email address</label>
            <input id="email" type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            <ErrorBox error={send.error} />
            <div style={{ marginTop: '1rem' }}>
              <button type="submit" disabled={send.isPending}>{send.isPending ? 'Sending…' : 'Email me a sign-in link'}</button>
            </div>
          </form>
        )}
      </div>
      {admin ? <PasswordSignIn /> : null}
      <p className="hint">{admin ? <a href="/app/sign-in">Company owner? Sign in here</a> : <a href="/admin/sign-in">Administrator? Sign in here</a>}</p>
    </main>
  );
}

/** Administrators may also sign in with the password the service was set up with (ADMIN_PASSWORD, npm run admin:create). */
function PasswordSignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => unwrap(api.POST('/api/admin/login', { body: { email, password } })),
    // The answer set the session cookie: the console loads signed in.
    onSuccess: () => window.location.assign('/admin'),
  });
  return (
    <form className="card" aria-labelledby="pw-h" onSubmit={(e) => { e.preventDefault(); login.mutate(); }}>
      <h2 id="pw-h">Or sign in with your password</h2>
      <label htmlFor="pw-email">Email address</label>
      <input id="pw-email" type="email" required autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor="pw-password">Password</label>
      <input id="pw-password" type="password" required autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <ErrorBox error={login.error} />
      <div style={{ marginTop: '1rem' }}>
        <button type="submit" disabled={login.isPending}>{login.isPending ? 'Signing in…' : 'Sign in'}</button>
      </div>
    </form>
  );
}

export const OwnerSignIn = () => {
  const { claim } = useSearch({ from: '/app/sign-in' });
  return <SignInForm admin={false} claim={claim} />;
};
export const AdminSignIn = () => <SignInForm admin />;
