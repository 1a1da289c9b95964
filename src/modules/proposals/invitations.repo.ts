import type { Queryable } from '../../platform/db.js';

/** SQL of the claim invitations and the addresses that opted out of them (the proposals module writes both). */
export function createInvitationsRepo(db: Queryable) {
  return {
    /** When the company was last invited within `days`, or undefined. */
    async lastSentWithin(companyId: string, days: number): Promise<Date | undefined> {
      const rows = await db.query<{ sent_at: Date }>(
        `SELECT sent_at FROM claim_invitations WHERE company_id = $1 AND sent_at > now() - make_interval(days => $2) ORDER BY sent_at DESC LIMIT 1`,
        [companyId, days],
      );
      return rows[0] ? new Date(rows[0].sent_at) : undefined;
    },

    async optedOut(email: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM invitation_optouts WHERE email = $1', [email.toLowerCase()])).length > 0;
    },

    /** Serialises the invitation decision for one company until the transaction ends (two proposals at once invite once). */
    async lockCompany(companyId: string): Promise<void> {
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('claim-invitation:' || $1::text))`, [companyId]);
    },

    async record(i: { companyId: string; email: string; proposalId: string; tokenHash: string }): Promise<void> {
      await db.query(
        `INSERT INTO claim_invitations (company_id, email, proposal_id, unsubscribe_token_hash) VALUES ($1, $2, $3, $4)`,
        [i.companyId, i.email.toLowerCase(), i.proposalId, i.tokenHash],
      );
    },

    /** The address an unsubscribe token was mailed to, or undefined. */
    async emailOfToken(tokenHash: string): Promise<string | undefined> {
      return (await db.query<{ email: string }>('SELECT email FROM claim_invitations WHERE unsubscribe_token_hash = $1', [tokenHash]))[0]?.email;
    },

    async optOut(email: string): Promise<void> {
      await db.query('INSERT INTO invitation_optouts (email) VALUES ($1) ON CONFLICT (email) DO NOTHING', [email.toLowerCase()]);
    },
  };
}

export type InvitationsRepo = ReturnType<typeof createInvitationsRepo>;
