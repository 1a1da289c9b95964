import type { Queryable } from '../../platform/db.js';

export interface LogoRow {
  content_type: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  etag: string;
  updated_at: Date;
}

/** Uploaded logos, normalised (logo.ts). */
export function createCompanyLogosRepo(db: Queryable) {
  return {
    async getLogo(companyId: string): Promise<LogoRow | undefined> {
      const rows = await db.query<LogoRow>(
        `SELECT l.content_type, l.bytes, l.width, l.height, l.etag, l.updated_at FROM company_logos l
           JOIN companies c ON c.id = l.company_id AND c.deleted_at IS NULL WHERE l.company_id = $1`,
        [companyId],
      );
      return rows[0];
    },

    async putLogo(companyId: string, logo: Omit<LogoRow, 'updated_at'>): Promise<void> {
      await db.query(
        `INSERT INTO company_logos (company_id, content_type, bytes, width, height, etag) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (company_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, width = EXCLUDED.width,
           height = EXCLUDED.height, etag = EXCLUDED.etag, updated_at = now()`,
        [companyId, logo.content_type, logo.bytes, logo.width, logo.height, logo.etag],
      );
    },
  };
}

export type CompanyLogosRepo = ReturnType<typeof createCompanyLogosRepo>;
