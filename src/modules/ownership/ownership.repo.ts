import type { Queryable } from '../../platform/db.js';

/** SQL over company_owners: who owns which company. Takes a transaction handle where a caller needs one. */
export function createOwnershipRepo(db: Queryable) {
  return {
    async ownsCompany(userId: string, companyId: string): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM company_owners o JOIN companies c ON c.id = o.company_id AND c.deleted_at IS NULL
         WHERE o.user_id = $1 AND o.company_id = $2`,
        [userId, companyId],
      );
      return rows.length > 0;
    },

    async hasOwner(companyId: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM company_owners WHERE company_id = $1 LIMIT 1', [companyId])).length > 0;
    },

    async companyIdsOwnedBy(userId: string): Promise<string[]> {
      const rows = await db.query<{ company_id: string }>(
        `SELECT o.company_id FROM company_owners o JOIN companies c ON c.id = o.company_id AND c.deleted_at IS NULL
         WHERE o.user_id = $1 ORDER BY o.created_at, o.company_id`,
        [userId],
      );
      return rows.map((r) => r.company_id);
    },

    /** Addresses of the live users owning a company (notifications). */
    async ownerEmailsOf(companyId: string): Promise<string[]> {
      const rows = await db.query<{ email: string }>(
        `SELECT u.email FROM company_owners o JOIN users u ON u.id = o.user_id AND u.deleted_at IS NULL
         WHERE o.company_id = $1 ORDER BY o.created_at`,
        [companyId],
      );
      return rows.map((r) => r.email);
    },

    async userExists(userId: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM users WHERE id = $1 AND deleted_at IS NULL', [userId])).length > 0;
    },

    async addOwner(userId: string, companyId: string): Promise<void> {
      await db.query('INSERT INTO company_owners (user_id, company_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, companyId]);
    },
  };
}

export type OwnershipRepo = ReturnType<typeof createOwnershipRepo>;
