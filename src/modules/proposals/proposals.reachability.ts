import type { Queryable } from '../../platform/db.js';

/** How an agent's proposal reaches a company, from its real history (spec: not shown; issue 37). */
export interface Reachability {
  /** Someone owns the listing and can read proposals in the dashboard. */
  claimed: boolean;
  /** dashboard: an owner reads the inbox; none: nobody will read a proposal (unclaimed, or not verified). */
  delivery: 'dashboard' | 'none';
  /** Share of the proposals of the last 365 days that the company answered (those younger than 3 days and unanswered do not count yet); null without any. */
  response_rate: number | null;
  /** Median hours from a proposal to the company's first answer, over the same proposals; null when none was answered. */
  median_response_hours: number | null;
  /** How many proposals the figures are measured on. */
  measured_on: number;
}

/** Read-only SQL over proposals, proposal_messages and company_owners (the proposals and ownership modules write them). */
export function createReachability(db: Queryable) {
  return async function reachabilityOf(companyId: string, isVerified: boolean): Promise<Reachability> {
    const rows = await db.query<{ claimed: boolean; due: number; answered: number; median_hours: number | null }>(
      `WITH p AS (
         SELECT pr.created_at,
                (SELECT min(m.created_at) FROM proposal_messages m WHERE m.proposal_id = pr.id AND m.author_role = 'company') AS answered_at
           FROM proposals pr
          WHERE pr.company_id = $1 AND pr.created_at > now() - interval '365 days'
       )
       SELECT EXISTS (SELECT 1 FROM company_owners o WHERE o.company_id = $1) AS claimed,
              count(*) FILTER (WHERE answered_at IS NOT NULL OR created_at < now() - interval '3 days')::int AS due,
              count(*) FILTER (WHERE answered_at IS NOT NULL)::int AS answered,
              (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM answered_at - created_at) / 3600.0) FILTER (WHERE answered_at IS NOT NULL))::float8 AS median_hours
         FROM p`,
      [companyId],
    );
    const r = rows[0]!;
    return {
      claimed: r.claimed,
      delivery: r.claimed && isVerified ? 'dashboard' : 'none',
      response_rate: r.due > 0 ? Math.round((r.answered / r.due) * 100) / 100 : null,
      median_response_hours: r.median_hours === null ? null : Math.round(r.median_hours * 10) / 10,
      measured_on: r.due,
    };
  };
}

export type ReachabilityOf = ReturnType<typeof createReachability>;
