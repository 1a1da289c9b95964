import type { Queryable } from '../../platform/db.js';

export type ReportReason = 'spam' | 'abuse' | 'other';

/** SQL of owners' reports of agents and of the agents companies blocked (the proposals module writes both). */
export function createAgentReportsRepo(db: Queryable) {
  return {
    /** Records the report of one proposal; false when it was reported before. */
    async report(r: { agentId: string; companyId: string; proposalId: string; userId: string | null; reason: ReportReason; note: string }): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO agent_reports (agent_id, company_id, proposal_id, reported_by, reason, note) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (proposal_id) WHERE proposal_id IS NOT NULL DO NOTHING RETURNING id`,
        [r.agentId, r.companyId, r.proposalId, r.userId, r.reason, r.note],
      );
      return rows.length > 0;
    },

    async block(companyId: string, agentId: string): Promise<void> {
      await db.query('INSERT INTO agent_blocks (company_id, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [companyId, agentId]);
    },

    async unblock(companyId: string, agentId: string): Promise<void> {
      await db.query('DELETE FROM agent_blocks WHERE company_id = $1 AND agent_id = $2', [companyId, agentId]);
    },

    async blocked(companyId: string, agentId: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM agent_blocks WHERE company_id = $1 AND agent_id = $2', [companyId, agentId])).length > 0;
    },

    /** Of these companies, those that blocked the agent. */
    async blockedAmong(agentId: string, companyIds: string[]): Promise<Set<string>> {
      const rows = await db.query<{ company_id: string }>('SELECT company_id FROM agent_blocks WHERE agent_id = $1 AND company_id = ANY($2::uuid[])', [agentId, companyIds]);
      return new Set(rows.map((r) => r.company_id));
    },

    /** Reports and blocks per agent, for the administrators' agent list. */
    async countsByAgents(agentIds: string[]): Promise<{ agent_id: string; reports: number; blocked_by: number }[]> {
      return db.query(
        `SELECT a.id AS agent_id,
                (SELECT count(*)::int FROM agent_reports r WHERE r.agent_id = a.id) AS reports,
                (SELECT count(*)::int FROM agent_blocks b WHERE b.agent_id = a.id) AS blocked_by
           FROM agents a WHERE a.id = ANY($1::uuid[])`,
        [agentIds],
      );
    },
  };
}
