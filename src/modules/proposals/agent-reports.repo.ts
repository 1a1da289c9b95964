import type { Queryable } from '../../platform/db.js';

export type ReportReason = 'spam' | 'abuse' | 'other';

/** An open report as administrators read it: the agent, the company that reported it and what the agent sent. */
export interface OpenReportRow {
  id: string;
  agent_id: string;
  agent_name: string;
  agent_active: boolean;
  company_id: string;
  company_name: string;
  proposal_id: string | null;
  proposal_text: string | null;
  reason: ReportReason;
  note: string;
  created_at: Date;
  open_reports_of_agent: number;
  blocked_by: number;
}

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

    /** Open reports, oldest first (the administrators' queue). */
    async open(limit: number): Promise<OpenReportRow[]> {
      return db.query<OpenReportRow>(
        `SELECT r.id, r.agent_id, a.name AS agent_name, a.is_active AS agent_active, r.company_id, c.name AS company_name,
                r.proposal_id, left(p.description, 600) AS proposal_text, r.reason, r.note, r.created_at,
                (SELECT count(*)::int FROM agent_reports o WHERE o.agent_id = r.agent_id AND o.resolved_at IS NULL) AS open_reports_of_agent,
                (SELECT count(*)::int FROM agent_blocks b WHERE b.agent_id = r.agent_id) AS blocked_by
           FROM agent_reports r JOIN agents a ON a.id = r.agent_id JOIN companies c ON c.id = r.company_id
           LEFT JOIN proposals p ON p.id = r.proposal_id
          WHERE r.resolved_at IS NULL ORDER BY r.created_at, r.id LIMIT $1`,
        [limit],
      );
    },

    async openById(id: string): Promise<{ id: string; agent_id: string } | undefined> {
      return (await db.query<{ id: string; agent_id: string }>('SELECT id, agent_id FROM agent_reports WHERE id = $1 AND resolved_at IS NULL', [id]))[0];
    },

    /** Closes one report (dismissed) or every open report of its agent (deactivated); returns how many closed. */
    async resolve(id: string, resolution: 'dismissed' | 'deactivated'): Promise<number> {
      const rows = await db.query(
        resolution === 'dismissed'
          ? `UPDATE agent_reports SET resolved_at = now(), resolution = 'dismissed' WHERE id = $1 AND resolved_at IS NULL RETURNING id`
          : `UPDATE agent_reports SET resolved_at = now(), resolution = 'deactivated'
              WHERE resolved_at IS NULL AND agent_id = (SELECT agent_id FROM agent_reports WHERE id = $1) RETURNING id`,
        [id],
      );
      return rows.length;
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
