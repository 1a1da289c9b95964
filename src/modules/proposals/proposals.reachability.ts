import type { Queryable } from '../../platform/db.js';
import { cachedById, type CacheGeneration } from '../../platform/cache-generation.js';

/** How an agent's proposal reaches a company, from its real history (spec: not shown; issue 37). */
export interface Reachability {
  /** Someone owns the listing and can read proposals in the dashboard. */
  claimed: boolean;
  /**
   * dashboard: an owner reads the inbox; email: the listing is unclaimed and a proposal is announced to the company's
   * public address as an invitation to claim it (at most once every 30 days); none: nobody will read a proposal
   * (not verified, or unclaimed with no public address that accepts invitations).
   */
  delivery: 'dashboard' | 'email' | 'none';
  /** Share of the proposals of the last 365 days that the company answered (those younger than 3 days and unanswered do not count yet); null without any. */
  response_rate: number | null;
  /** Median hours from a proposal to the company's first answer, over the same proposals; null when none was answered. */
  median_response_hours: number | null;
  /** How many proposals the figures are measured on. */
  measured_on: number;
}

/** Read-only SQL over proposals, proposal_messages and company_owners (the proposals and ownership modules write them). */
export function createReachability(db: Queryable) {
  return async function reachabilityOf(company: { id: string; is_verified: boolean; contact_email: string | null }): Promise<Reachability> {
    const rows = await db.query<{ claimed: boolean; opted_out: boolean; due: number; answered: number; median_hours: number | null }>(
      `WITH p AS (
         SELECT pr.created_at,
                (SELECT min(m.created_at) FROM proposal_messages m WHERE m.proposal_id = pr.id AND m.author_role = 'company') AS answered_at
           FROM proposals pr
          WHERE pr.company_id = $1 AND pr.created_at > now() - interval '365 days'
       )
       SELECT EXISTS (SELECT 1 FROM company_owners o WHERE o.company_id = $1) AS claimed,
              EXISTS (SELECT 1 FROM invitation_optouts x WHERE x.email = lower($2::text)) AS opted_out,
              count(*) FILTER (WHERE answered_at IS NOT NULL OR created_at < now() - interval '3 days')::int AS due,
              count(*) FILTER (WHERE answered_at IS NOT NULL)::int AS answered,
              (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM answered_at - created_at) / 3600.0) FILTER (WHERE answered_at IS NOT NULL))::float8 AS median_hours
         FROM p`,
      [company.id, company.contact_email?.trim() ?? ''],
    );
    const r = rows[0]!;
    const invitable = Boolean(company.contact_email?.trim()) && !r.opted_out;
    return {
      claimed: r.claimed,
      delivery: !company.is_verified ? 'none' : r.claimed ? 'dashboard' : invitable ? 'email' : 'none',
      response_rate: r.due > 0 ? Math.round((r.answered / r.due) * 100) / 100 : null,
      median_response_hours: r.median_hours === null ? null : Math.round(r.median_hours * 10) / 10,
      measured_on: r.due,
    };
  };
}

export type ReachabilityOf = ReturnType<typeof createReachability>;

/**
 * Reachability kept while nothing it is read from changes (the companies and company-facts generation, exact on
 * PGlite only; otherwise every lookup reads) and ten minutes at most, as proposals become due with time.
 */
export function cachedReachability(generation: CacheGeneration, reachabilityOf: ReachabilityOf): ReachabilityOf {
  const asked = new Map<string, Parameters<ReachabilityOf>[0]>();
  const read = cachedById<Reachability>(
    generation,
    async (keys) => new Map(await Promise.all(keys.map(async (key) => [key, await reachabilityOf(asked.get(key)!)] as const))),
    { ttlMs: 600_000 },
  );
  return async (company) => {
    // The profile's own inputs are part of the key: a changed address or verification reads again.
    const key = `${company.id}|${company.is_verified}|${company.contact_email ?? ''}`;
    asked.set(key, company);
    try {
      return (await read([key])).get(key)!;
    } finally {
      asked.delete(key);
    }
  };
}
