import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from './errors.js';
import { cookieToken } from './session-cookie.js';

/** OpenAPI security requirement of operations for owners and administrators (bearer token or session cookie). */
export const BEARER_SECURITY = [{ OAuth2PasswordBearer: [] as string[] }];
/** OpenAPI security requirement of agent operations (X-API-Key). */
export const API_KEY_SECURITY = [{ ApiKey: [] as string[] }];

/** Who is acting on a company: an owner (user) or an administrator. Administrators' actions are audited. */
export interface Actor {
  kind: 'user' | 'admin';
  id: string;
  email: string;
}

/** The signed-in caller of a route behind requireUser/requireCompanyManager, as an actor. */
export function actorOf(req: FastifyRequest): Actor {
  const p = req.principal;
  if (!p) throw new AppError('unauthorized', 'Not authenticated');
  return p.kind === 'admin' ? { kind: 'admin', id: p.adminId, email: p.email } : { kind: 'user', id: p.userId, email: p.email };
}

/** The calling agent of a route behind requireAgent. */
export function callingAgentId(req: FastifyRequest): string {
  if (!req.agent) throw new AppError('unauthorized', 'Missing API key: send the X-API-Key header');
  return req.agent.agentId;
}

/**
 * Who is calling. Routes never parse credentials themselves: they add one of the guards below
 * as an onRequest hook (before the body is read or validated, so an anonymous caller learns
 * nothing from validation errors) and read request.principal / request.agent.
 *
 * - Owner (user) and administrator bearer tokens are verified by the auth module
 *   (modules/auth), agent API keys by the agents module (modules/agents). Each supplies its
 *   verifier to createGuards in app.ts.
 * - Company ownership ("owner/admin" in the spec) is one check: guards.requireCompanyManager.
 */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  email: string;
  /** Id of the session/token, for revocation (sign-out). */
  sessionId: string;
}

export interface AdminPrincipal {
  kind: 'admin';
  adminId: string;
  email: string;
  sessionId: string;
}

export type BearerPrincipal = UserPrincipal | AdminPrincipal;

export interface AgentPrincipal {
  agentId: string;
  name: string;
  ownerEmail: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: BearerPrincipal;
    agent?: AgentPrincipal;
  }
}

/** Verifies a bearer token; undefined = unknown/expired/revoked (→ 401). */
export type BearerVerifier = (token: string) => Promise<BearerPrincipal | undefined>;
/** Verifies an X-API-Key value; returns why it failed so the 401 can say which. */
export type ApiKeyVerifier = (key: string) => Promise<{ ok: true; agent: AgentPrincipal } | { ok: false; reason: 'malformed' | 'unknown' | 'inactive' | 'unconfirmed' }>;
/** Whether a user owns a company (admins manage every company). */
export type OwnershipCheck = (userId: string, companyId: string) => Promise<boolean>;

export interface AuthVerifiers {
  bearer: BearerVerifier;
  apiKey: ApiKeyVerifier;
  owns: OwnershipCheck;
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface Guards {
  /** A signed-in owner (user) token; an admin token also passes (admins may act as owners). */
  requireUser: Guard;
  /** An administrator token; an owner token is 403. */
  requireAdmin: Guard;
  /** X-API-Key of an active agent. */
  requireAgent: Guard;
  /** Sets request.agent when a valid key is sent, never fails (for endpoints that work with and without a key). */
  optionalAgent: Guard;
  /** Sets request.principal when a valid bearer token is sent, never fails (for answers that say more to the right caller). */
  optionalBearer: Guard;
  /**
   * Owner of the company named by the route param (default `tool_id`) or an admin.
   * Another owner gets 404 (the company's management view does not exist for them), never the data.
   */
  requireCompanyManager: (param?: string) => Guard;
}

/**
 * Who may call an operation, as its guard says. Every guard made by createGuards carries its role, and
 * `registerRouteRoles` writes it into the route's OpenAPI operation (`x-role`), so the role is read
 * from the guard that runs and can never disagree with it (route-security.test.ts reads it).
 */
export type RouteRole = 'public' | 'optional' | 'agent' | 'owner' | 'company-manager' | 'admin';
const guardRoles = new WeakMap<Guard, RouteRole>();
const withRole = <G extends Guard>(role: RouteRole, guard: G): G => {
  guardRoles.set(guard, role);
  return guard;
};
/** The strictest first: a route guarded twice takes the stricter role. */
const ROLE_ORDER: RouteRole[] = ['admin', 'company-manager', 'owner', 'agent', 'optional'];
const CREDENTIAL_ROLES = new Set<RouteRole>(['admin', 'company-manager', 'owner', 'agent']);

/** Puts `guard` in front of every route the plugin `app` registers (for plugins whose routes all share one role). */
export function guardEveryRoute(app: FastifyInstance, guard: Guard): void {
  app.addHook('onRoute', (route) => {
    route.onRequest = [guard, ...[route.onRequest ?? []].flat()] as typeof route.onRequest;
  });
}

/**
 * Records every documented route's role (`x-role` in its OpenAPI operation) and refuses to start when a route
 * declares a credential in `security` but no guard checks one, or has a credential guard but declares none.
 * Checked when the app is ready, after every plugin's own onRoute hooks have attached their guards.
 */
export function registerRouteRoles(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', async () => {
    for (const route of routes) {
      const schema = route.schema as (Record<string, unknown> & { security?: Record<string, unknown>[]; hide?: boolean }) | undefined;
      if (!schema || schema.hide) continue;
      // Fastify's own HEAD for a GET shares the GET's handler and schema; a HEAD route of its own is documented (openapi.ts).
      if (route.method === 'HEAD' && routes.some((r) => r.method === 'GET' && r.handler === route.handler)) continue;
      const roles = [route.onRequest ?? []].flat().map((h) => guardRoles.get(h as Guard)).filter((r): r is RouteRole => Boolean(r));
      const role = ROLE_ORDER.find((r) => roles.includes(r)) ?? 'public';
      const declared = Boolean(schema.security?.length) && !schema.security!.some((s) => Object.keys(s).length === 0);
      if (declared !== CREDENTIAL_ROLES.has(role)) {
        throw new Error(`${String(route.method)} ${route.url}: ${declared ? 'declares a credential in security but no guard checks one' : `has the ${role} guard but declares no security`}`);
      }
      schema['x-role'] = role;
    }
  });
}

const BEARER = /^Bearer\s+(\S+)$/i;

/** Why an API key was refused, in the words of every surface that checks keys (REST and MCP). */
export const API_KEY_REFUSALS: Record<'malformed' | 'unknown' | 'inactive' | 'unconfirmed', string> = {
  malformed: 'Malformed API key: it should look like the key shown at registration',
  unknown: 'Invalid API key: it is unknown or was rotated',
  inactive: 'API key belongs to a deactivated agent',
  unconfirmed: 'API key of a registration whose owner email was never confirmed: the link expired after 24 hours; register again',
};
const challenge = { 'www-authenticate': 'Bearer' };

export function createGuards(verify: AuthVerifiers): Guards {
  async function bearer(request: FastifyRequest): Promise<BearerPrincipal> {
    if (request.principal) return request.principal;
    const header = request.headers.authorization;
    // Browsers (the dashboard) send the session cookie instead; see session-cookie.ts for its CSRF rule.
    const fromCookie = header ? undefined : cookieToken(request);
    if (!header && !fromCookie) throw new AppError('unauthorized', 'Not authenticated: send Authorization: Bearer <token>', { headers: challenge });
    const m = header ? BEARER.exec(header) : undefined;
    if (header && !m) throw new AppError('unauthorized', 'Malformed Authorization header: expected "Bearer <token>"', { headers: challenge });
    const principal = await verify.bearer(m ? m[1]! : fromCookie!);
    if (!principal) throw new AppError('unauthorized', 'Invalid or expired token: sign in again', { headers: challenge });
    request.principal = principal;
    return principal;
  }

  async function agentKey(request: FastifyRequest, required: boolean): Promise<void> {
    const raw = request.headers['x-api-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key) {
      if (required) throw new AppError('unauthorized', 'Missing API key: send the X-API-Key header (register at POST /api/v1/agent/register)');
      return;
    }
    const result = await verify.apiKey(key.trim());
    if (result.ok) {
      request.agent = result.agent;
      return;
    }
    if (!required) return;
    const why = API_KEY_REFUSALS[result.reason];
    throw new AppError('unauthorized', why);
  }

  return {
    requireUser: withRole('owner', async (request) => {
      await bearer(request);
    }),
    requireAdmin: withRole('admin', async (request) => {
      const p = await bearer(request);
      if (p.kind !== 'admin') throw new AppError('forbidden', 'Administrator access required');
    }),
    requireAgent: withRole('agent', (request) => agentKey(request, true)),
    optionalAgent: withRole('optional', (request) => agentKey(request, false)),
    optionalBearer: withRole('optional', async (request) => {
      await bearer(request).catch(() => undefined);
    }),
    requireCompanyManager: (param = 'tool_id') => withRole('company-manager', async (request) => {
      const p = await bearer(request);
      if (p.kind === 'admin') return;
      const companyId = (request.params as Record<string, string>)[param];
      if (!companyId || !(await verify.owns(p.userId, companyId))) {
        throw new AppError('not_found', 'Company not found among your companies');
      }
    }),
  };
}
