import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet } from '@tanstack/react-router';
import { OwnerLayout, AdminLayout } from './pages/Layout';

/**
 * One router for both audiences: /app/* (owners) and /admin/* (administrators). Each screen is
 * its own chunk (loaded when first visited). Filters that should survive a reload or a shared
 * link live in the URL (validateSearch).
 */
const rootRoute = createRootRoute({ component: () => <Outlet />, notFoundComponent: () => <main><h1>Page not found</h1><p><a href="/app/">Go to your dashboard</a></p></main> });

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

const ownerSignIn = createRoute({ getParentRoute: () => rootRoute, path: '/app/sign-in', validateSearch: (s: Record<string, unknown>): { claim?: string } => ({ claim: str(s.claim) }), component: lazyRouteComponent(() => import('./pages/SignIn'), 'OwnerSignIn') });
const adminSignIn = createRoute({ getParentRoute: () => rootRoute, path: '/admin/sign-in', component: lazyRouteComponent(() => import('./pages/SignIn'), 'AdminSignIn') });

const owner = createRoute({ getParentRoute: () => rootRoute, id: 'owner', component: OwnerLayout });
const companies = createRoute({ getParentRoute: () => owner, path: '/app', component: lazyRouteComponent(() => import('./pages/Companies')) });
export type ProposalSearch = { status?: 'pending' | 'approved' | 'rejected' | 'responded'; q?: string; deleted?: boolean; id?: string };
const proposals = createRoute({
  getParentRoute: () => owner,
  path: '/app/proposals',
  validateSearch: (s: Record<string, unknown>): ProposalSearch => ({
    status: ['pending', 'approved', 'rejected', 'responded'].includes(s.status as string) ? (s.status as ProposalSearch['status']) : undefined,
    q: str(s.q),
    deleted: s.deleted === true || s.deleted === 'true' ? true : undefined,
    id: str(s.id),
  }),
  component: lazyRouteComponent(() => import('./pages/Proposals')),
});
const profile = createRoute({
  getParentRoute: () => owner,
  path: '/app/companies/$id/profile',
  validateSearch: (s: Record<string, unknown>): { instruction?: string } => ({ instruction: str(s.instruction) }),
  component: lazyRouteComponent(() => import('./pages/Profile')),
});
const widget = createRoute({ getParentRoute: () => owner, path: '/app/companies/$id/widget', component: lazyRouteComponent(() => import('./pages/Widget')) });
const insights = createRoute({ getParentRoute: () => owner, path: '/app/companies/$id/insights', component: lazyRouteComponent(() => import('./pages/Insights')) });
const reviews = createRoute({ getParentRoute: () => owner, path: '/app/companies/$id/reviews', component: lazyRouteComponent(() => import('./pages/Reviews')) });
const scans = createRoute({ getParentRoute: () => owner, path: '/app/companies/$id/scans', component: lazyRouteComponent(() => import('./pages/Scans')) });

export type BillingSearch = { tool_id?: string; status?: string };
const billing = createRoute({
  getParentRoute: () => owner,
  path: '/app/billing',
  validateSearch: (s: Record<string, unknown>): BillingSearch => ({ tool_id: str(s.tool_id), status: str(s.status) }),
  component: lazyRouteComponent(() => import('./pages/Billing')),
});

const admin = createRoute({ getParentRoute: () => rootRoute, id: 'admin', component: AdminLayout });
const ADMIN_VIEWS = ['to_verify', 'unverified', 'verified', 'featured', 'subscribed'] as const;
type AdminView = (typeof ADMIN_VIEWS)[number];
const adminCompanies = createRoute({
  getParentRoute: () => admin, path: '/admin',
  validateSearch: (s: Record<string, unknown>): { q?: string; view?: AdminView } => ({ q: str(s.q), view: ADMIN_VIEWS.find((v) => v === s.view) }), component: lazyRouteComponent(() => import('./pages/AdminCompanies')) });
const adminAgents = createRoute({ getParentRoute: () => admin, path: '/admin/agents', validateSearch: (s: Record<string, unknown>): { q?: string } => ({ q: str(s.q) }), component: lazyRouteComponent(() => import('./pages/AdminAgents')) });
const adminCrawl = createRoute({ getParentRoute: () => admin, path: '/admin/crawl', validateSearch: (s: Record<string, unknown>): { hours?: number; job?: string } => ({ hours: [1, 24, 168].includes(Number(s.hours)) ? Number(s.hours) : undefined, job: str(s.job) }), component: lazyRouteComponent(() => import('./pages/AdminCrawl')) });
export type PromoSearch = { q?: string; active?: boolean };
const adminPromos = createRoute({
  getParentRoute: () => admin,
  path: '/admin/promo-codes',
  validateSearch: (s: Record<string, unknown>): PromoSearch => ({ q: str(s.q), active: s.active === true || s.active === 'true' ? true : s.active === false || s.active === 'false' ? false : undefined }),
  component: lazyRouteComponent(() => import('./pages/AdminPromos')),
});
const adminReindex = createRoute({ getParentRoute: () => admin, path: '/admin/reindex', component: lazyRouteComponent(() => import('./pages/AdminReindex')) });
const adminReviews = createRoute({ getParentRoute: () => admin, path: '/admin/reviews', component: lazyRouteComponent(() => import('./pages/AdminReviews')) });
const adminHeld = createRoute({ getParentRoute: () => admin, path: '/admin/held', component: lazyRouteComponent(() => import('./pages/AdminHeld')) });
const adminAgentReports = createRoute({ getParentRoute: () => admin, path: '/admin/agent-reports', component: lazyRouteComponent(() => import('./pages/AdminAgentReports')) });
export type SubscriptionSearch = { status?: 'active' | 'trialing' | 'past_due' | 'canceled' | 'ending'; q?: string; page?: number };
const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'ending'] as const;
const adminSubscriptions = createRoute({
  getParentRoute: () => admin,
  path: '/admin/subscriptions',
  validateSearch: (s: Record<string, unknown>): SubscriptionSearch => ({
    status: SUBSCRIPTION_STATUSES.find((v) => v === s.status), q: str(s.q), page: Number(s.page) >= 2 ? Math.floor(Number(s.page)) : undefined,
  }),
  component: lazyRouteComponent(() => import('./pages/AdminSubscriptions')),
});
const adminAudit = createRoute({ getParentRoute: () => admin, path: '/admin/audit', component: lazyRouteComponent(() => import('./pages/AdminAudit')) });

const routeTree = rootRoute.addChildren([
  ownerSignIn,
  adminSignIn,
  owner.addChildren([companies, proposals, profile, widget, insights, reviews, scans, billing]),
  admin.addChildren([adminCompanies, adminAgents, adminCrawl, adminPromos, adminReindex, adminReviews, adminAgentReports, adminHeld, adminSubscriptions, adminAudit]),
]);

export const router = createRouter({ routeTree, trailingSlash: 'never', defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
