import { createHash, randomBytes } from 'node:crypto';
import { toPlainText } from '../../lib/text.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import type { WebhookEmitter } from '../webhooks/webhooks.events.js';
import { createReviewsRepo, type ReviewableProposal, type ReviewRow } from './reviews.repo.js';
import type { AgentReviewResult, ManagedReview, Rating, Review, ReviewList } from './reviews.schemas.js';

/**
 * Reviews from real proposals only. When a company approves a proposal, the customer named on it is mailed a
 * link (inviteIn, in the approval's transaction); through it the customer rates the work, or confirms the review
 * their agent submitted for them (held until then). One review per proposal, never before approval, never by
 * the company's own people (an owner's address or the company's domain). Owners answer once, publicly; owners
 * and agents report; administrators hide or keep.
 */
export interface ReviewsServiceDeps {
  db: Db;
  mail?: Mailer | undefined;
  events?: WebhookEmitter | undefined;
  /** The company's owners' addresses (accounts module). */
  ownerEmailsOf: (companyId: string) => Promise<string[]>;
  baseUrl: string;
  serviceName: string;
  log?: { warn(obj: object, msg: string): void };
}

/** How long a review link works. */
const LINK_DAYS = 60;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(24).toString('base64url');
const expiry = () => new Date(Date.now() + LINK_DAYS * 86_400_000);

/** "Jane D.": the first name and the initial of the last; a review names no one in full. */
export function authorOf(customerName: string): string {
  const parts = customerName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return 'A customer';
  return parts.length === 1 ? parts[0]! : `${parts[0]} ${parts[parts.length - 1]!.charAt(0).toUpperCase()}.`;
}

export function ratingFrom(r: { count: number; s1: number; s2: number; s3: number; s4: number; s5: number } | undefined): Rating {
  if (!r || r.count === 0) return { average: null, count: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } };
  const sum = r.s1 + 2 * r.s2 + 3 * r.s3 + 4 * r.s4 + 5 * r.s5;
  return { average: Math.round((sum / r.count) * 10) / 10, count: r.count, distribution: { 1: r.s1, 2: r.s2, 3: r.s3, 4: r.s4, 5: r.s5 } };
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function toReview(r: ReviewRow): Review {
  return {
    id: r.id,
    company_id: r.company_id,
    rating: r.rating!,
    text: r.body,
    author: authorOf(r.customer_name),
    written_by: r.submitted_by ?? 'customer',
    published_at: iso(r.published_at)!,
    reply: r.reply ? { text: r.reply, replied_at: iso(r.replied_at)! } : null,
  };
}

export function createReviewsService(deps: ReviewsServiceDeps) {
  const { db, mail, events, baseUrl, serviceName } = deps;
  const repo = createReviewsRepo(db);
  const linkOf = (token: string) => `${baseUrl}/reviews/${token}`;

  /** The company's own people may not review it: an owner's address, or an address at the company's domain. */
  function isInsider(p: ReviewableProposal, owners: readonly string[]): boolean {
    const email = p.customer_email.toLowerCase();
    const domain = email.split('@')[1] ?? '';
    if (p.company_domain && (domain === p.company_domain || domain.endsWith(`.${p.company_domain}`))) return true;
    return owners.some((o) => o.toLowerCase() === email);
  }
  const ownersOf = (companyId: string) => deps.ownerEmailsOf(companyId).catch(() => [] as string[]);

  async function queue(tx: Queryable, to: string, subject: string, text: string): Promise<string[]> {
    if (!mail) return [];
    const id = await mail.queueIn(tx, { to, subject, text });
    return id ? [id] : [];
  }

  async function dispatch(ids: string[]) {
    if (mail && ids.length) await mail.dispatch(ids).catch((err: unknown) => deps.log?.warn({ err }, 'review mail stored, delivery job not queued yet'));
    await events?.dispatch().catch((err: unknown) => deps.log?.warn({ err }, 'webhook deliveries not queued yet'));
  }

  async function ratings(ids: string[]): Promise<Map<string, Rating>> {
    const rows = await repo.ratings(ids);
    const by = new Map(rows.map((r) => [r.company_id, r]));
    return new Map(ids.map((id) => [id, ratingFrom(by.get(id))]));
  }

  async function publishIn(tx: Queryable, r: ReviewRow, rating: number, body: string, by: 'customer' | 'agent'): Promise<void> {
    await createReviewsRepo(tx).publish(r.id, rating, body, by);
    await events?.emit(tx, { type: 'review.published', agentId: r.agent_id, data: { review_id: r.id, proposal_id: r.proposal_id, company_id: r.company_id, rating } });
  }

  const cleanText = (text: string, loc: (string | number)[]) => {
    const body = toPlainText(text).slice(0, 2000);
    if (!body) throw invalid(loc, 'The review needs a few words about the work', text, 'string_too_short');
    return body;
  };

  async function listPublished(companyId: string, limit: number, offset: number): Promise<ReviewList> {
    const [rows, rating] = await Promise.all([repo.published(companyId, limit, offset), ratings([companyId])]);
    return { reviews: rows.map(toReview), rating: rating.get(companyId)!, offset, limit };
  }

  return {
    /**
     * Called in the transaction that approves a proposal: invites its customer to review the work (one link,
     * once per proposal), unless the customer is one of the company's own people (`owners`: their addresses, read
     * before the transaction). Returns the mail to dispatch after the commit.
     */
    async inviteIn(tx: Queryable, proposalId: string, owners: readonly string[]): Promise<string[]> {
      const txRepo = createReviewsRepo(tx);
      const p = await txRepo.proposal(proposalId);
      if (!p || isInsider(p, owners)) return [];
      const token = newToken();
      const id = await txRepo.invite({ proposalId, companyId: p.company_id, agentId: p.agent_id, customerName: p.customer_name, tokenHash: hashOf(token), expiresAt: expiry() });
      if (!id) return [];
      return queue(tx, p.customer_email, `How was the work of ${p.company_name}?`, [
        `Hello ${p.customer_name},`,
        '',
        `${p.company_name} accepted the request your assistant sent through ${serviceName}. When the work is done, tell others how it went: rate it from 1 to 5 and say a few words.`,
        '',
        linkOf(token),
        '',
        `Only customers of requests that went through ${serviceName} can review a company, and only once. The link works for ${LINK_DAYS} days. If you did not ask for this, ignore this email.`,
      ].join('\n'));
    },

    /** The agent submits its customer's review: held until the customer confirms it by the link mailed now. */
    async submitByAgent(agentId: string, proposalId: string, input: { rating: number; text: string }): Promise<AgentReviewResult> {
      const body = cleanText(input.text, ['body', 'text']);
      const p = await repo.proposal(proposalId);
      if (!p || p.agent_id !== agentId) throw notFound('Proposal');
      if (p.status !== 'approved') throw new AppError('conflict', `A review can be written once the company approved the proposal; it is ${p.status}.`);
      if (isInsider(p, await ownersOf(p.company_id))) throw new AppError('forbidden', 'The customer of this proposal belongs to the company: a company cannot review itself.');
      const mailIds: string[] = [];
      const out = await db.transaction(async (tx) => {
        const txRepo = createReviewsRepo(tx);
        const token = newToken();
        let review = await txRepo.byProposal(proposalId, true);
        if (!review) {
          await txRepo.invite({ proposalId, companyId: p.company_id, agentId, customerName: p.customer_name, tokenHash: hashOf(token), expiresAt: expiry() });
          review = (await txRepo.byProposal(proposalId, true))!;
        }
        if (review.status === 'published' || review.status === 'hidden') throw new AppError('conflict', 'This proposal already has its review: there is one review per proposal.');
        await txRepo.hold(review.id, input.rating, body, hashOf(token), expiry());
        mailIds.push(...(await queue(tx, p.customer_email, `Confirm your review of ${p.company_name}`, [
          `Hello ${p.customer_name},`,
          '',
          `Your assistant wrote this review of ${p.company_name} for you (${input.rating} of 5):`,
          '',
          body,
          '',
          'It is published only when you confirm it, and you can change it first:',
          linkOf(token),
          '',
          `If you did not ask for this, ignore this email: nothing is published.`,
        ].join('\n'))));
        return { review_id: review.id, status: 'held' as const, message: 'Held until the customer confirms it by the link mailed to them; it is published then.' };
      });
      await dispatch(mailIds);
      return out;
    },

    /** What the customer's link shows; undefined for an unknown or expired link. */
    async byLink(token: string): Promise<(ReviewRow & { expired: boolean }) | undefined> {
      const r = await repo.byTokenHash(hashOf(token));
      return r ? { ...r, expired: new Date(r.token_expires_at).getTime() < Date.now() } : undefined;
    },

    /** The customer publishes through the link: their own rating and words, or the agent's text as it stands. */
    async publishByLink(token: string, input: { rating: number; text: string }): Promise<ReviewRow> {
      const body = cleanText(input.text, ['body', 'text']);
      if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5) throw invalid(['body', 'rating'], 'Choose a rating from 1 to 5', input.rating, 'value_error');
      const out = await db.transaction(async (tx) => {
        const txRepo = createReviewsRepo(tx);
        const r = await txRepo.byTokenHash(hashOf(token), true);
        if (!r || new Date(r.token_expires_at).getTime() < Date.now()) throw new AppError('not_found', 'This review link is unknown or has expired.');
        if (r.status === 'published' || r.status === 'hidden') throw new AppError('conflict', 'This review is already published: there is one review per request.');
        // Confirmed as the agent wrote it, or changed by the customer: who wrote the words is said.
        const by = r.status === 'held' && r.body === body && r.rating === input.rating ? 'agent' : 'customer';
        await publishIn(tx, r, input.rating, body, by);
        return (await txRepo.byId(r.id))!;
      });
      await dispatch([]);
      return out;
    },

    /** Published reviews of a live company; an unknown one is 404. */
    async listForCompany(companyId: string, limit: number, offset: number): Promise<ReviewList> {
      if (!(await repo.companyExists(companyId))) throw notFound('Company');
      return listPublished(companyId, limit, offset);
    },

    listPublished,

    ratings,

    async listForOwner(companyId: string): Promise<{ reviews: ManagedReview[]; rating: Rating }> {
      const [rows, rating] = await Promise.all([repo.ofCompany(companyId, 100, 0), ratings([companyId])]);
      return { reviews: await Promise.all(rows.map((r) => managed(r))), rating: rating.get(companyId)! };
    },

    /** The company's one public answer to a review. */
    async reply(companyId: string, reviewId: string, text: string): Promise<ManagedReview> {
      const body = toPlainText(text).slice(0, 2000);
      if (!body) throw invalid(['body', 'text'], 'The answer needs visible text', text, 'string_too_short');
      return db.transaction(async (tx) => {
        const txRepo = createReviewsRepo(tx);
        const r = await txRepo.byId(reviewId, true);
        if (!r || r.company_id !== companyId || r.status === 'invited' || r.status === 'held') throw notFound('Review');
        if (r.reply) throw new AppError('conflict', 'This review already has your answer: a company answers a review once.');
        await txRepo.setReply(r.id, body);
        return managed((await txRepo.byId(r.id))!, tx);
      });
    },

    /** A report by the company's owner (`owner:<company>`) or by an agent (`agent:<id>`); once per reporter. */
    async report(reviewId: string, reporter: { companyId: string } | { agentId: string }, reason: string, note?: string): Promise<{ message: string }> {
      const r = await repo.byId(reviewId);
      const visible = r && (r.status === 'published' || r.status === 'hidden');
      if (!r || !visible || ('companyId' in reporter && r.company_id !== reporter.companyId)) throw notFound('Review');
      const who = 'companyId' in reporter ? `owner:${reporter.companyId}` : `agent:${reporter.agentId}`;
      const text = [reason, toPlainText(note ?? '').slice(0, 1000)].filter(Boolean).join(': ');
      const fresh = await repo.report(r.id, who, text);
      return { message: fresh ? 'Reported: an administrator will look at it.' : 'You already reported this review; an administrator will look at it.' };
    },

    async reported(): Promise<{ reviews: ManagedReview[] }> {
      return { reviews: await Promise.all((await repo.reported(100)).map((r) => managed(r))) };
    },

    /** An administrator's decision on a review: hidden (it leaves the company's rating) or kept; open reports are resolved either way. */
    async moderate(reviewId: string, decision: 'hide' | 'keep' | 'restore'): Promise<ManagedReview> {
      return db.transaction(async (tx) => {
        const txRepo = createReviewsRepo(tx);
        const r = await txRepo.byId(reviewId, true);
        if (!r || r.status === 'invited' || r.status === 'held') throw notFound('Review');
        if (decision === 'hide') await txRepo.setStatus(r.id, 'hidden');
        if (decision === 'restore') await txRepo.setStatus(r.id, 'published');
        await txRepo.resolveReports(r.id, decision === 'hide' ? 'hidden' : 'kept');
        return managed((await txRepo.byId(r.id))!, tx);
      });
    },
  };

  /** The owner's and administrators' view; `q`: the transaction when called inside one (PGlite would wait on a read beside it). */
  async function managed(r: ReviewRow, q: Queryable = db): Promise<ManagedReview> {
    const reports = await createReviewsRepo(q).reportsOf(r.id);
    return {
      id: r.id,
      proposal_id: r.proposal_id,
      company_id: r.company_id,
      company_name: r.company_name,
      status: r.status as 'published' | 'hidden',
      rating: r.rating!,
      text: r.body,
      author: authorOf(r.customer_name),
      written_by: r.submitted_by ?? 'customer',
      published_at: iso(r.published_at),
      reply: r.reply ? { text: r.reply, replied_at: iso(r.replied_at)! } : null,
      reports: reports.map((x) => ({ reporter: x.reporter.split(':')[0]!, reason: x.reason, reported_at: iso(x.created_at)! })),
    };
  }
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
