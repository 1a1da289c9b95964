import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AdminSubscriptionsQuery } from './payments.schemas.js';
import { BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { err, errorResponses, type App } from '../../platform/http.js';
import type { SharedLimiter, SharedLimits } from '../../platform/shared-limits.js';
import type { Caller, PaymentsServiceImpl } from './payments.service.js';

/** Payments (spec 4.4, 6). Routes only parse, guard and shape. */
const tags = ['payments'];
const security = BEARER_SECURITY;

function callerOf(req: FastifyRequest): Caller {
  const p = req.principal;
  if (!p) return null;
  return p.kind === 'admin' ? { kind: 'admin', email: p.email } : { kind: 'user', userId: p.userId, email: p.email };
}

async function limited(limiter: SharedLimiter, req: FastifyRequest) {
  const hit = await limiter.hit(req.ip);
  if (!hit.ok) throw new AppError('rate_limited', `Too many requests: try again in ${hit.retryAfterSeconds} s`, { headers: { 'retry-after': String(hit.retryAfterSeconds) } });
}

export async function paymentsRoutes(app: App, opts: { payments: PaymentsServiceImpl; guards: Guards; limits: SharedLimits }) {
  const { payments, guards } = opts;
  // Per client, shared by every instance through Redis when REDIS_URL is set.
  const validateLimiter = opts.limits.limiter('payments.promo-validate', { limit: 20, windowMs: 60_000 });
  const checkoutLimiter = opts.limits.limiter('payments.checkout', { limit: 20, windowMs: 60_000 });
  const ToolQuery = Type.Object({ tool_id: Type.Optional(Type.String({ format: 'uuid', description: 'Needed when the caller owns several companies (and for administrators)' })) });

  app.get('/me', {
    onRequest: guards.requireUser,
    schema: { operationId: 'payments.me', tags, security, summary: 'Billing state of the caller\'s company', description: 'Plan, effective plan, status, period end, cancel flag, limits, invoices and the plans on offer.', querystring: ToolQuery, response: { 200: Type.Ref('BillingState'), 401: err, 404: err, ...errorResponses } },
    handler: async (req) => payments.me(callerOf(req), (req.query as { tool_id?: string }).tool_id),
  });

  app.post('/create-checkout', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'payments.createCheckout', tags, security, summary: 'Open a checkout for the pro plan',
      description: 'The signed-in owner of tool_id, or an administrator (the spec declares no credential; buying a plan for a company is its owner\'s act): 401 without a token, 404 for a company that is not yours. 409 when the company already has an entitled paid plan; an open checkout of the same caller for the same choice is returned again (reused), never another caller\'s; Idempotency-Key honoured per caller; success_url and cancel_url stay within this site. 503 when payments are switched off on this server (PAYMENTS_PROVIDER=off); 402/502/503 when the payment provider refuses or cannot be reached.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 200 })) }),
      body: Type.Ref('CheckoutRequest'), response: { 201: Type.Ref('CheckoutResponse'), 200: Type.Ref('CheckoutResponse'), 401: err, 402: err, 403: err, 404: err, 409: err, 429: err, 502: err, 503: err, ...errorResponses },
    },
    handler: async (req, reply) => {
      await limited(checkoutLimiter, req);
      const out = await payments.createCheckout(callerOf(req), req.body as never, req.headers['idempotency-key'] as string | undefined);
      return reply.code(out.reused ? 200 : 201).send(out);
    },
  });

  app.get('/success', {
    onRequest: guards.optionalBearer,
    schema: {
      operationId: 'payments.success', tags, summary: 'Payment success landing',
      description: 'Where the payment page sends the browser back. The session is fetched from the provider server-side: nothing in the query but session_id is used. 303 to the success (or cancel) page; with Accept: application/json the state as JSON. With the local test provider, landing here is the payment: it completes only a checkout that the signed-in caller (session cookie or bearer token) opened; for anyone else the checkout is unknown (404 / status=unknown).',
      querystring: Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_]+$' }) }),
      response: { 200: Type.Object({ status: Type.String(), tool_id: Type.String(), plan: Type.String() }), 303: Type.Null(), 404: err, 502: err, 503: err, ...errorResponses },
    },
    handler: async (req, reply) => {
      const out = await payments.success((req.query as { session_id: string }).session_id, callerOf(req));
      const json = (req.headers.accept ?? '').includes('application/json');
      if (!out.found) {
        if (json) throw new AppError('not_found', 'Unknown checkout session');
        return reply.code(303).header('location', '/app/billing?status=unknown').send();
      }
      if (json) return { status: out.status, tool_id: out.tool_id, plan: out.plan };
      return reply.code(303).header('location', out.redirect).send();
    },
  });

  app.post('/billing-portal', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'payments.billingPortal', tags, security, summary: 'Open the billing portal', description: 'A short-lived portal URL (card, invoices, plan). 409 when the company never had a billing account.',
      body: Type.Optional(Type.Object({ tool_id: Type.Optional(Type.String({ format: 'uuid' })), return_url: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false })),
      response: { 200: Type.Object({ url: Type.String() }), 401: err, 404: err, 409: err, 502: err, 503: err, ...errorResponses },
    },
    handler: async (req) => payments.portal(callerOf(req), (req.body ?? {}) as never),
  });

  app.post('/cancel-subscription', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'payments.cancelSubscription', tags, security, summary: 'Cancel at the end of the paid period',
      description: 'Idempotent: a second call gives the same answer. 409 when there is no active subscription or an administrator set the plan.',
      body: Type.Optional(Type.Object({ tool_id: Type.Optional(Type.String({ format: 'uuid' })), reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false })),
      response: { 200: Type.Ref('CancelSubscriptionResponse'), 401: err, 404: err, 409: err, 502: err, 503: err, ...errorResponses },
    },
    handler: async (req) => payments.cancel(callerOf(req), (req.body ?? {}) as never),
  });

  app.post('/resume-subscription', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'payments.resumeSubscription', tags, security, summary: 'Keep a subscription that was set to end at the period\'s end',
      description: 'Undoes the cancellation while the paid period runs: the plan renews again. Idempotent. 409 when the plan already ended (subscribe again) or there is none.',
      body: Type.Optional(Type.Object({ tool_id: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false })),
      response: { 200: Type.Ref('CancelSubscriptionResponse'), 401: err, 404: err, 409: err, 502: err, 503: err, ...errorResponses },
    },
    handler: async (req) => payments.resume(callerOf(req), (req.body ?? {}) as never),
  });

  app.post('/promo/validate', {
    schema: {
      operationId: 'payments.validatePromo', tags, summary: 'Check a promo code', description: 'valid, or the reason it is not (not_found, inactive, expired, exhausted, not_applicable, first_time_only), with the discounted price. Rate-limited per client.',
      body: Type.Ref('PromoValidateRequest'), response: { 200: Type.Ref('PromoValidateResponse'), 429: err, ...errorResponses },
    },
    handler: async (req) => {
      await limited(validateLimiter, req);
      const body = req.body as { code: string; plan: 'pro'; interval?: 'month' | 'year'; tool_id?: string };
      return payments.promos.validate(body, payments.priceOf(body.interval ?? 'month'));
    },
  });

  app.get('/admin/subscriptions', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'payments.adminSubscriptions', tags, security, summary: 'Paid plans with their companies, and a summary (administrators)',
      description: 'Ordered by company name; status filters (ending: cancelled, running until the period ends), q matches the name or domain. The summary covers every paid plan whatever the filter.',
      querystring: AdminSubscriptionsQuery,
      response: { 200: Type.Ref('AdminSubscriptionList'), 401: err, 403: err, ...errorResponses },
    },
    handler: async (req) => payments.adminSubscriptions(req.query as Static<typeof AdminSubscriptionsQuery>),
  });

  const PromoId = Type.Object({ promo_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
  app.get('/admin/promo-codes', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'payments.listPromos', tags, security, summary: 'List promo codes (newest first)',
      querystring: Type.Object({
        active: Type.Optional(Type.Boolean()),
        q: Type.Optional(Type.String({ maxLength: 100 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        cursor: Type.Optional(Type.String({ maxLength: 20 })),
      }),
      response: { 200: Type.Ref('PromoList'), 401: err, 403: err, ...errorResponses },
    },
    handler: async (req) => payments.promos.list(req.query as never),
  });
  app.post('/admin/promo-codes', {
    onRequest: guards.requireAdmin,
    schema: { operationId: 'payments.createPromo', tags, security, summary: 'Create a promo code', description: '409 when the code exists (case-insensitive).', body: Type.Ref('PromoCreateRequest'), response: { 201: Type.Ref('Promo'), 401: err, 403: err, 409: err, 502: err, 503: err, ...errorResponses } },
    handler: async (req, reply) => reply.code(201).send(await payments.promos.create(req.body as never, req.principal!.email)),
  });
  app.patch('/admin/promo-codes/:promo_id', {
    onRequest: guards.requireAdmin,
    schema: { operationId: 'payments.updatePromo', tags, security, summary: 'Update a promo code', description: 'active, description, expires_at, max_redemptions. Discount fields are immutable (422: create a new code).', params: PromoId, body: Type.Ref('PromoUpdateRequest'), response: { 200: Type.Ref('Promo'), 401: err, 403: err, 404: err, ...errorResponses } },
    handler: async (req) => payments.promos.update((req.params as { promo_id: number }).promo_id, req.body as never),
  });

  // The webhook reads the raw bytes (the signature covers them): its own content-type parser, this route only.
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (req, body, done) => {
      (req as FastifyRequest & { rawBody?: Buffer }).rawBody = body as Buffer;
      done(null, undefined);
    });
    hook.post('/webhook', {
      schema: {
        operationId: 'payments.webhook', tags, summary: 'Payment provider notifications',
        description: 'Stripe-Signature (t=…,v1=… HMAC-SHA256 over the raw body, 300 s tolerance, every secret of STRIPE_WEBHOOK_SECRET tried). 400 and nothing stored on a bad signature; each event id is processed once (duplicate: true on a replay); unknown types are acknowledged (ignored: true).',
        response: { 200: Type.Object({ received: Type.Boolean(), duplicate: Type.Optional(Type.Boolean()), ignored: Type.Optional(Type.Boolean()) }), 400: err, 413: err, 500: err },
      },
      handler: async (req) => {
        const raw = (req as FastifyRequest & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
        const sig = req.headers['stripe-signature'];
        return payments.receiveWebhook(raw, typeof sig === 'string' ? sig : undefined);
      },
    });
    hook.route({
      method: 'HEAD', url: '/webhook',
      schema: { operationId: 'payments.webhookProbe', tags, summary: 'Webhook URL probe (200, empty, no effect)' },
      handler: async (_req, reply) => reply.code(200).send(),
    });
  });
}
