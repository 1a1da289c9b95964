import { Agent, request } from 'undici';
import { classifyAddress, resolveSafe, safeLookup, systemResolver, UnsafeAddressError, type ResolvedAddress, type Resolver } from '../../lib/ssrf.js';
import { webhookOutcomes } from '../../platform/outcomes.js';
import type { SecretBox } from './webhooks.signing.js';
import { signatureHeader } from './webhooks.signing.js';
import type { EndpointRow, WebhooksRepo } from './webhooks.repo.js';

/**
 * One attempt of one delivery. The network rules are the crawler's (lib/ssrf.ts): only public
 * addresses, checked on the address the socket actually dials (no DNS rebinding), a timeout on
 * connect, headers and body; redirects are never followed (a 3xx is a failed attempt) and at most
 * 64 KB of an answer is read.
 */
export interface SendResult {
  status: number | null;
  ms: number;
  error: string | null;
}

export interface Sender {
  post(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): Promise<void>;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Why an endpoint's port is refused, or null. Public hosts only on the allowed ports (80/443 and what is
 * configured), so the delivery log cannot be used to probe other ports; with private addresses allowed
 * (tests, local development) a receiver on this machine or network may use any port.
 */
export function portRefusal(url: URL, allowedPorts: readonly number[], allowPrivate: boolean, addresses: readonly ResolvedAddress[] | undefined): string | null {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (allowedPorts.includes(port)) return null;
  const local = addresses ? addresses.length > 0 && addresses.every((a) => !classifyAddress(a.address).ok) : true;
  if (allowPrivate && local) return null;
  return `port ${port} is not allowed: use ${allowedPorts.join(' or ')}`;
}

export function createSender(o: { allowPrivate: boolean; allowedPorts: readonly number[]; timeoutMs: number; resolver?: Resolver }): Sender {
  const resolver = o.resolver ?? systemResolver;
  const agent = new Agent({
    connect: { lookup: safeLookup(resolver, o.allowPrivate), timeout: o.timeoutMs } as Record<string, unknown>,
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
    connections: 8,
    keepAliveTimeout: 4000,
  });
  return {
    async post(raw, headers, body) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const url = new URL(raw);
        // IP literals never reach the socket lookup: judged here (names are judged again at connect time).
        const addresses = await resolveSafe(url.hostname, resolver, o.allowPrivate);
        const refused = portRefusal(url, o.allowedPorts, o.allowPrivate, addresses);
        if (refused) return { status: null, ms: elapsed(), error: refused };
        const res = await request(url, { dispatcher: agent, method: 'POST', headers, body, signal: AbortSignal.timeout(o.timeoutMs) });
        let size = 0;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > MAX_ANSWER_BYTES) {
            res.body.destroy();
            break;
          }
        }
        const status = res.statusCode;
        if (status >= 200 && status < 300) return { status, ms: elapsed(), error: null };
        if (status >= 300 && status < 400) return { status, ms: elapsed(), error: `redirect ${status}: redirects are not followed, register the final URL` };
        return { status, ms: elapsed(), error: `HTTP ${status}` };
      } catch (err) {
        return { status: null, ms: elapsed(), error: describe(err) };
      }
    },
    close: () => agent.close(),
  };
}

function describe(err: unknown): string {
  const unsafe = findUnsafe(err);
  if (unsafe) return `refused: ${unsafe.message}`;
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || /timeout/i.test(e?.code ?? '')) return 'timeout: the endpoint did not answer in time';
  return `network: ${e?.code ?? e?.message ?? 'error'}`.slice(0, 300);
}

function findUnsafe(err: unknown, depth = 0): UnsafeAddressError | undefined {
  if (!err || depth > 4) return undefined;
  if (err instanceof UnsafeAddressError) return err;
  return findUnsafe((err as { cause?: unknown }).cause, depth + 1);
}

export interface AttemptDeps {
  repo: WebhooksRepo;
  sender: Sender;
  box: SecretBox;
  userAgent: string;
  /** Delays before each retry, seconds. */
  retrySchedule: number[];
  disableAfterExhausted: number;
  disableAfterFailingHours: number;
  /** Tells the agent's owner that an endpoint was disabled (never fails the attempt). */
  onDisabled(endpoint: EndpointRow, reason: 'gone' | 'failing', lastError: string): Promise<void>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(endpoint: EndpointRow, box: SecretBox, now = Date.now()): string[] {
  const secrets = [box.open(endpoint.secret_enc, endpoint.id)];
  if (endpoint.previous_secret_enc && endpoint.previous_secret_expires_at && new Date(endpoint.previous_secret_expires_at).getTime() > now) {
    secrets.push(box.open(endpoint.previous_secret_enc, endpoint.id));
  }
  return secrets;
}

/**
 * Makes attempt `attempt` (0-based) of a delivery and records its outcome. A stale job (another attempt got
 * there first, or the delivery is settled) does nothing. 2xx = delivered; 410 = the endpoint is gone: it is
 * disabled and nothing is retried; anything else retries on the schedule, and a delivery that exhausted it
 * counts toward disabling the endpoint.
 */
export async function attemptDelivery(deps: AttemptDeps, deliveryId: string, attempt: number): Promise<void> {
  const { repo } = deps;
  const row = await repo.forAttempt(deliveryId);
  if (!row || row.delivery.status !== 'pending' || row.delivery.attempts !== attempt) return;
  const { endpoint, payload, delivery } = row;
  if (!endpoint.enabled) {
    await repo.abandon(deliveryId, `endpoint disabled (${endpoint.disabled_reason ?? 'agent'})`);
    return;
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': deps.userAgent,
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(signingSecrets(endpoint, deps.box), delivery.event_id, timestamp, payload),
  };
  const r = await deps.sender.post(endpoint.url, headers, payload);
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  const gone = r.status === 410;
  const retriesLeft = !ok && !gone && attempt < deps.retrySchedule.length;
  // A 410 disables the endpoint (and tells its owner) before the delivery reads as failed: whoever sees the failed
  // delivery sees the endpoint disabled too (and the mail queued). A crash in between leaves the delivery pending; its
  // next run finds the endpoint disabled and abandons it.
  if (gone) await disable(deps, endpoint, 'gone', 'HTTP 410 Gone', deliveryId);
  const recorded = await repo.recordAttempt({
    id: deliveryId,
    attempt,
    responseStatus: r.status,
    responseMs: r.ms,
    error: gone ? 'HTTP 410: the endpoint is gone and was disabled' : r.error,
    final: ok ? 'delivered' : retriesLeft ? null : 'failed',
    nextInSeconds: retriesLeft ? deps.retrySchedule[attempt]! : null,
  });
  if (!recorded) return;
  webhookOutcomes.inc({ outcome: ok ? 'delivered' : gone ? 'gone' : retriesLeft ? 'retry' : 'failed' });
  deps.log.info({ deliveryId, endpointId: endpoint.id, attempt: attempt + 1, status: r.status, ms: r.ms }, ok ? 'webhook delivered' : 'webhook attempt failed');
  // A delivered attempt has cleared the endpoint's failing state with it (recordAttempt).
  if (ok || gone) return;
  const state = await repo.endpointFailed(endpoint.id, !retriesLeft);
  if (state && (state.exhausted_in_a_row >= deps.disableAfterExhausted || state.failing_hours >= deps.disableAfterFailingHours)) {
    await disable(deps, endpoint, 'failing', r.error ?? `HTTP ${r.status}`);
  }
}

/** Disables the endpoint, abandons its other pending deliveries (not `keep`, the one being recorded) and tells its owner. */
async function disable(deps: AttemptDeps, endpoint: EndpointRow, reason: 'gone' | 'failing', lastError: string, keep?: string): Promise<void> {
  if (!(await deps.repo.disable(endpoint.id, reason))) return;
  for (const id of await deps.repo.pendingOf(endpoint.id)) if (id !== keep) await deps.repo.abandon(id, `endpoint disabled (${reason})`);
  deps.log.warn({ endpointId: endpoint.id, reason }, 'webhook endpoint disabled');
  await deps.onDisabled(endpoint, reason, lastError).catch((err: unknown) => deps.log.warn({ err, endpointId: endpoint.id }, 'endpoint-disabled mail not queued'));
}
