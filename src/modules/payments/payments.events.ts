import { AppError } from '../../platform/errors.js';
import { jobName } from '../../platform/jobs.js';
import { sendMails, type Mail, type PaymentsCtx } from './payments.context.js';
import { createPaymentsRepo } from './payments.repo.js';
import { signPayload, verifySignature } from './payments.signature.js';
import { gatherEvent, parseEvent } from './payments.sync.js';

/**
 * Provider events: the webhook stores each once, a job applies it, and the daily pass catches up
 * on what was missed (and on the local provider's own clock).
 */
export const PAYMENTS_EVENT_JOB = jobName<{ event_id: string }>('payments.event');
export const PAYMENTS_DAILY_JOB = jobName<object>('payments.daily');
const HANDLED = new Set(['checkout.session.completed', 'customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid', 'invoice.payment_succeeded', 'invoice.payment_failed']);

/** The secrets a webhook signature may be made with: Stripe's, and the local provider's own. */
function webhookSecrets(ctx: PaymentsCtx): string[] {
  return [...ctx.deps.config.payments.stripeWebhookSecrets, ...(ctx.deps.local ? [ctx.localSecret] : [])];
}

/** POST /webhook: signature over the raw bytes first; then one row per event id; the work is a job. */
export async function receiveWebhook(ctx: PaymentsCtx, raw: Buffer, signature: string | undefined): Promise<{ received: true; duplicate?: true; ignored?: true }> {
  const { deps, repo } = ctx;
  const check = verifySignature(raw, signature, webhookSecrets(ctx), ctx.clock().getTime());
  if (!check.ok) throw new AppError('bad_request', `Invalid signature (${check.reason}): check STRIPE_WEBHOOK_SECRET`);
  const e = parseEvent(raw);
  const known = HANDLED.has(e.type);
  const fresh = await repo.insertEvent({ event_id: e.id, provider: e.id.startsWith('evt_local') ? 'local' : deps.provider.name, type: e.type, created: e.created, status: known ? 'pending' : 'ignored', payload: e.payload });
  if (!fresh) return { received: true, duplicate: true };
  if (!known) return { received: true, ignored: true };
  if (deps.jobs.isRunning()) await deps.jobs.send(PAYMENTS_EVENT_JOB, { event_id: e.id }, { singletonKey: e.id }).catch((err: unknown) => deps.log.error({ err }, 'payments: enqueue failed (the daily pass retries)'));
  return { received: true };
}

/** The job: the dedup row and the effects commit together; a failure is recorded and retried. */
export async function processEvent(ctx: PaymentsCtx, eventId: string): Promise<void> {
  const { repo } = ctx;
  const mails: Mail[] = [];
  try {
    const stored = await repo.event(eventId);
    if (!stored || stored.status === 'done' || stored.status === 'ignored') return;
    const apply = await gatherEvent(ctx, parseEvent(Buffer.from(JSON.stringify(stored.payload))));
    await ctx.deps.db.transaction(async (tx) => {
      const r = createPaymentsRepo(tx);
      const row = await r.lockEvent(eventId);
      if (!row || row.status === 'done' || row.status === 'ignored') return;
      await apply(tx, mails);
      await r.finishEvent(eventId, 'done', null);
    });
  } catch (err) {
    mails.length = 0;
    await repo.finishEvent(eventId, 'failed', err instanceof Error ? err.message.slice(0, 300) : 'failed');
    throw err;
  }
  await sendMails(ctx, mails);
}

/** Processes every pending or failed event in order (tests, the daily pass, a worker catching up). */
export async function processPending(ctx: PaymentsCtx): Promise<number> {
  let n = 0;
  for (const { event_id } of await ctx.repo.pendingEvents()) {
    await processEvent(ctx, event_id).then(() => n++, (err: unknown) => ctx.deps.log.error({ err, eventId: event_id }, 'payments: event failed'));
  }
  return n;
}

/**
 * At start: a job for every event stored but not processed (a stop between the acknowledgement
 * and the enqueue, or a failed attempt), so an acknowledged event waits seconds, not the daily pass.
 */
export async function queuePending(ctx: PaymentsCtx): Promise<number> {
  const { jobs } = ctx.deps;
  if (!jobs.isRunning()) return 0;
  const pending = await ctx.repo.pendingEvents();
  for (const { event_id } of pending) await jobs.send(PAYMENTS_EVENT_JOB, { event_id }, { singletonKey: event_id });
  return pending.length;
}

/** The local provider's events, signed and sent through the webhook path like Stripe's. */
export async function deliverLocalEvents(ctx: PaymentsCtx): Promise<void> {
  const { local } = ctx.deps;
  if (!local) return;
  for (const ev of local.drainEvents()) {
    const raw = Buffer.from(JSON.stringify(ev));
    await receiveWebhook(ctx, raw, signPayload(raw, ctx.localSecret, Math.floor(ctx.clock().getTime() / 1000)));
  }
}

/** The daily job (now injectable): local periods end, notices before a cancelled plan ends, missed events. */
export async function daily(ctx: PaymentsCtx, now: Date = ctx.clock()): Promise<void> {
  const { local } = ctx.deps;
  if (local) {
    await local.endPeriods(now);
    await deliverLocalEvents(ctx);
  }
  await processPending(ctx);
  const mails: Mail[] = [];
  for (const row of await ctx.repo.endingSoon(now, new Date(now.getTime() + 3 * 86_400_000))) {
    if (await ctx.repo.markEndingNotice(row.company_id, row.period_end!)) {
      const day = row.period_end!.toISOString().slice(0, 10);
      mails.push({ companyId: row.company_id, render: (name) => ({ subject: `${name}: the pro plan ends on ${day}`, text: `The pro plan of ${name} was cancelled and ends on ${day}; the company then returns to the free plan. Changed your mind? Open ${ctx.base}/app/billing` }) });
    }
  }
  await sendMails(ctx, mails);
}
