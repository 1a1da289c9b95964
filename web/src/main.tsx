import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { router } from './routes';
import { ApiError, isUnauthorized } from './api/client';
import './styles.css';

/** A session that expired or was signed out elsewhere: back to the sign-in of this half of the app. */
function onError(e: unknown) {
  if (!isUnauthorized(e) || window.location.pathname.endsWith('/sign-in')) return;
  window.location.assign(window.location.pathname.startsWith('/admin') ? '/admin/sign-in' : '/app/sign-in');
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: { staleTime: 10_000, retry: (n, e) => !(e instanceof ApiError && e.status >= 400 && e.status < 500) && n < 2, refetchOnWindowFocus: false },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
