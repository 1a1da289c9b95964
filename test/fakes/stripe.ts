import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stateful fake of the Stripe API for tests: the real SDK talks to it over HTTP (host/port/protocol).
 * It records every request (method, path, bracket-decoded form body, Idempotency-Key) and keeps customers,
 * checkout sessions, subscriptions and invoices. `failNext` makes the next request fail like Stripe does.
 */
export interface FakeRequest { method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | undefined }
type Obj = Record<string, unknown>;

/** `a[b][0][c]=1` → { a: { b: [ { c: '1' } ] } } (what the SDK sends). */
export function decodeForm(text: string): Record<string, unknown> {
  const out: Obj = {};
  for (const pair of text.split('&').filter(Boolean)) {
    const [k, v = ''] = pair.split('=').map((s) => decodeURIComponent(s.replace(/\+/g, ' '))) as [string, string?];
    const keys = k.replace(/\]/g, '').split('[');
    let cur: Obj = out;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) cur[key] = v;
      else cur = (cur[key] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {}) as Obj;
    });
  }
  return out;
}

export interface FakeStripe {
  port: number;
  requests: FakeRequest[];
  customers: Map<string, Obj>;
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  /** The next `times` requests fail in this way (a closed socket may be retried once by Node's keep-alive agent). */
  failNext(mode: 'card_declined' | 'rate_limit' | 'server_error' | 'socket_close', times?: number): void;
  /** Pays a session: subscription (status as given) and a paid invoice. */
  complete(sessionId: string, status?: string): { subscriptionId: string; invoiceId: string };
  setSubscription(id: string, patch: Obj): void;
  close(): Promise<void>;
}

let seq = 0;
const nextId = (p: string) => `${p}_fake${++seq}`;
const now = () => Math.floor(Date.now() / 1000);

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeRequest[] = [];
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  let failure: string | undefined;
  let failuresLeft = 0;
  const error = (status: number, type: string, message: string, code?: string) => ({ status, body: { error: { type, message, ...(code ? { code } : {}) } } });

  function route(method: string, path: string, body: Obj, query: URLSearchParams): { status: number; body: unknown } {
    let m: RegExpMatchArray | null;
    if (method === 'GET' && path === '/v1/prices') {
      const key = query.get('lookup_keys[0]') ?? '';
      return { status: 200, body: { object: 'list', data: [{ id: `price_${key}`, object: 'price', lookup_key: key, unit_amount: key.endsWith('year') ? 19000 : 1900 }], has_more: false } };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const c = { id: nextId('cus'), object: 'customer', ...body };
      customers.set(c.id, c);
      return { status: 200, body: c };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const s = { id: nextId('cs_test'), object: 'checkout.session', status: 'open', payment_status: 'unpaid', url: 'https://checkout.stripe.test/pay', expires_at: now() + 86400, subscription: null, ...body };
      sessions.set(s.id, s);
      return { status: 200, body: s };
    }
    if ((m = path.match(/^\/v1\/checkout\/sessions\/([\w]+)$/)) && method === 'GET') {
      const s = sessions.get(m[1]!);
      return s ? { status: 200, body: s } : error(404, 'invalid_request_error', 'No such checkout session');
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return { status: 200, body: { id: nextId('bps'), object: 'billing_portal.session', url: 'https://billing.stripe.test/session', ...body } };
    if (method === 'GET' && path === '/v1/subscriptions') {
      const data = [...subscriptions.values()].filter((s) => s.customer === query.get('customer'));
      return { status: 200, body: { object: 'list', data, has_more: false } };
    }
    if ((m = path.match(/^\/v1\/subscriptions\/([\w]+)$/))) {
      const s = subscriptions.get(m[1]!);
      if (!s) return error(404, 'invalid_request_error', 'No such subscription');
      if (method === 'POST') {
        if (body.cancel_at_period_end === 'true') s.cancel_at_period_end = true;
        if (body.cancel_at_period_end === 'false') s.cancel_at_period_end = false;
      }
      return { status: 200, body: s };
    }
    if ((m = path.match(/^\/v1\/invoices\/([\w]+)$/)) && method === 'GET') {
      const i = invoices.get(m[1]!);
      return i ? { status: 200, body: i } : error(404, 'invalid_request_error', 'No such invoice');
    }
    if (method === 'POST' && path === '/v1/coupons') return { status: 200, body: { id: nextId('coupon'), object: 'coupon', ...body } };
    if (method === 'POST' && path === '/v1/promotion_codes') return { status: 200, body: { id: nextId('promo'), object: 'promotion_code', active: true, ...body } };
    if ((m = path.match(/^\/v1\/promotion_codes\/([\w]+)$/)) && method === 'POST') return { status: 200, body: { id: m[1], object: 'promotion_code', ...body } };
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  const read = (req: IncomingMessage) => new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => resolve(data));
  });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = decodeForm(await read(req));
    const key = req.headers['idempotency-key'];
    requests.push({ method: req.method ?? 'GET', path: url.pathname, body, idempotencyKey: typeof key === 'string' ? key : undefined });
    const f = failuresLeft > 0 ? failure : undefined;
    failuresLeft--;
    if (f === 'socket_close') return void req.socket.destroy();
    const out = f === 'card_declined' ? error(402, 'card_error', 'Your card was declined.', 'card_declined')
      : f === 'rate_limit' ? error(429, 'rate_limit_error', 'Too many requests')
      : f === 'server_error' ? error(500, 'api_error', 'Something went wrong')
      : route(req.method ?? 'GET', url.pathname, body, url.searchParams);
    res.writeHead(out.status, { 'content-type': 'application/json', 'request-id': nextId('req') });
    res.end(JSON.stringify(out.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    requests, customers, sessions, subscriptions, invoices,
    failNext: (mode, times = 1) => {
      failure = mode;
      failuresLeft = times;
    },
    complete(sessionId, status = 'active') {
      const s = sessions.get(sessionId)!;
      const meta = (s.subscription_data as Obj | undefined)?.metadata ?? {};
      const interval = String((s.metadata as Obj | undefined)?.interval ?? 'month');
      const sub = {
        id: nextId('sub'), object: 'subscription', customer: s.customer, status, cancel_at_period_end: false, cancel_at: null, trial_end: null, created: now(), metadata: meta,
        items: { object: 'list', data: [{ id: nextId('si'), current_period_end: now() + 30 * 86400, price: { id: 'price_x', recurring: { interval } } }] },
      };
      subscriptions.set(sub.id, sub);
      Object.assign(s, { status: 'complete', payment_status: 'paid', subscription: sub.id });
      const inv = { id: nextId('in'), object: 'invoice', customer: s.customer, status: 'paid', number: 'F-0001', amount_paid: 1900, amount_due: 1900, currency: 'eur', created: now(), hosted_invoice_url: 'https://invoice.stripe.test/i', invoice_pdf: null, parent: { subscription_details: { subscription: sub.id } } };
      invoices.set(inv.id, inv);
      return { subscriptionId: sub.id, invoiceId: inv.id };
    },
    setSubscription(id, patch) {
      Object.assign(subscriptions.get(id)!, patch);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
