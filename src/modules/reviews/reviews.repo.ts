import type { Queryable } from '../../platform/db.js';

export type ReviewStatus = 'invited' | 'held' | 'published' | 'hidden';

export interface ReviewRow {
  id: string;
  proposal_id: string;
  company_id: string;
  company_name: string;
  agent_id: string;
  customer_name: string;
  status: ReviewStatus;
  rating: number | null;
  body: string;
  submitted_by: 'customer' | 'agent' | null;
  token_expires_at: Date;
  reply: string | null;
  replied_at: Date | null;
  published_at: Date | null;
  created_at: Date;
  open_reports: number;
}

/** The proposal facts a review is decided on (read from the proposals table; the proposals module writes it). */
export interface ReviewableProposal {
  id: string;
  agent_id: string;
  company_id: string;
  company_name: string;
  company_domain: string;
  customer_email: string;
  customer_name: string;
  status: string;
  deleted_at: Date | null;
}

const SELECT = `SELECT r.id, r.proposal_id, r.company_id, c.name AS company_name, r.agent_id, r.customer_name, r.status, r.rating, r.body,
  r.submitted_by, r.token_expires_at, r.reply, r.replied_at, r.published_at, r.created_at,
  (SELECT count(*)::int FROM review_reports x WHERE x.review_id = r.id AND x.resolved_at IS NULL) AS open_reports
  FROM reviews r JOIN companies c ON c.id = r.company_id`;

/** SQL of reviews and their reports (the reviews module is their one writer). */
export function createReviewsRepo(db: Queryable) {
  return {
    async proposal(id: string): Promise<ReviewableProposal | undefined> {
      const rows = await db.query<ReviewableProposal>(
        `SELECT p.id, p.agent_id, p.company_id, c.name AS company_name, c.domain AS company_domain, p.customer_email, p.customer_name, p.status, p.deleted_at
           FROM proposals p JOIN companies c ON c.id = p.company_id WHERE p.id = $1`,
        [id],
      );
      return rows[0];
    },

    async companyExists(id: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM companies WHERE id = $1 AND deleted_at IS NULL', [id])).length > 0;
    },

    async byProposal(proposalId: string, forUpdate = false): Promise<ReviewRow | undefined> {
      return (await db.query<ReviewRow>(`${SELECT} WHERE r.proposal_id = $1${forUpdate ? ' FOR UPDATE OF r' : ''}`, [proposalId]))[0];
    },

    async byId(id: string, forUpdate = false): Promise<ReviewRow | undefined> {
      return (await db.query<ReviewRow>(`${SELECT} WHERE r.id = $1${forUpdate ? ' FOR UPDATE OF r' : ''}`, [id]))[0];
    },

    async byTokenHash(hash: string, forUpdate = false): Promise<ReviewRow | undefined> {
      return (await db.query<ReviewRow>(`${SELECT} WHERE r.token_hash = $1${forUpdate ? ' FOR UPDATE OF r' : ''}`, [hash]))[0];
    },

    /** A new invitation; undefined when the proposal already has a review (one per proposal). */
    async invite(p: { proposalId: string; companyId: string; agentId: string; customerName: string; tokenHash: string; expiresAt: Date }): Promise<string | undefined> {
      const rows = await db.query<{ id: string }>(
        `INSERT INTO reviews (proposal_id, company_id, agent_id, customer_name, token_hash, token_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (proposal_id) DO NOTHING RETURNING id`,
        [p.proposalId, p.companyId, p.agentId, p.customerName, p.tokenHash, p.expiresAt],
      );
      return rows[0]?.id;
    },

    /** The agent's text, held for the customer; the link is renewed (the token is stored hashed, so a new one is mailed). */
    async hold(id: string, rating: number, body: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await db.query(
        `UPDATE reviews SET status = 'held', rating = $2, body = $3, submitted_by = 'agent', token_hash = $4, token_expires_at = $5, updated_at = now() WHERE id = $1`,
        [id, rating, body, tokenHash, expiresAt],
      );
    },

    async publish(id: string, rating: number, body: string, submittedBy: 'customer' | 'agent'): Promise<void> {
      await db.query(
        `UPDATE reviews SET status = 'published', rating = $2, body = $3, submitted_by = $4, published_at = now(), updated_at = now() WHERE id = $1`,
        [id, rating, body, submittedBy],
      );
    },

    async setReply(id: string, reply: string): Promise<void> {
      await db.query('UPDATE reviews SET reply = $2, replied_at = now(), updated_at = now() WHERE id = $1', [id, reply]);
    },

    async setStatus(id: string, status: 'published' | 'hidden'): Promise<void> {
      await db.query('UPDATE reviews SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
    },

    /** A report; false when this reporter already reported the review. */
    async report(reviewId: string, reporter: string, reason: string): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        'INSERT INTO review_reports (review_id, reporter, reason) VALUES ($1, $2, $3) ON CONFLICT (review_id, reporter) DO NOTHING RETURNING id',
        [reviewId, reporter, reason],
      );
      return rows.length > 0;
    },

    async resolveReports(reviewId: string, resolution: 'hidden' | 'kept'): Promise<void> {
      await db.query('UPDATE review_reports SET resolved_at = now(), resolution = $2 WHERE review_id = $1 AND resolved_at IS NULL', [reviewId, resolution]);
    },

    async reportsOf(reviewId: string): Promise<{ reporter: string; reason: string; created_at: Date }[]> {
      return db.query('SELECT reporter, reason, created_at FROM review_reports WHERE review_id = $1 AND resolved_at IS NULL ORDER BY created_at', [reviewId]);
    },

    /** Published reviews of a company, newest first. */
    async published(companyId: string, limit: number, offset: number): Promise<ReviewRow[]> {
      return db.query<ReviewRow>(`${SELECT} WHERE r.company_id = $1 AND r.status = 'published' ORDER BY r.published_at DESC, r.id LIMIT $2 OFFSET $3`, [companyId, limit, offset]);
    },

    /** Every review of a company except bare invitations (the owner's view), newest first. */
    async ofCompany(companyId: string, limit: number, offset: number): Promise<ReviewRow[]> {
      return db.query<ReviewRow>(`${SELECT} WHERE r.company_id = $1 AND r.status IN ('published', 'hidden') ORDER BY r.published_at DESC NULLS LAST, r.id LIMIT $2 OFFSET $3`, [companyId, limit, offset]);
    },

    /** Reviews with open reports (the administrators' queue), oldest report first. */
    async reported(limit: number): Promise<ReviewRow[]> {
      return db.query<ReviewRow>(
        `${SELECT} WHERE EXISTS (SELECT 1 FROM review_reports x WHERE x.review_id = r.id AND x.resolved_at IS NULL)
          ORDER BY (SELECT min(x.created_at) FROM review_reports x WHERE x.review_id = r.id AND x.resolved_at IS NULL) LIMIT $1`,
        [limit],
      );
    },

    /** Rating per company (published reviews): count and the count of each star, 1 to 5. */
    async ratings(companyIds: string[]): Promise<{ company_id: string; count: number; s1: number; s2: number; s3: number; s4: number; s5: number }[]> {
      if (companyIds.length === 0) return [];
      return db.query(
        `SELECT company_id, count(*)::int AS count,
                count(*) FILTER (WHERE rating = 1)::int AS s1, count(*) FILTER (WHERE rating = 2)::int AS s2, count(*) FILTER (WHERE rating = 3)::int AS s3,
                count(*) FILTER (WHERE rating = 4)::int AS s4, count(*) FILTER (WHERE rating = 5)::int AS s5
           FROM reviews WHERE status = 'published' AND company_id = ANY($1::uuid[]) GROUP BY company_id`,
        [companyIds],
      );
    },
  };
}

export type ReviewsRepo = ReturnType<typeof createReviewsRepo>;
