import type { Db } from '../../platform/db.js';

/** A crawled value below its publish threshold, waiting for an owner or an administrator (migration 0038). */
export interface HeldFieldRow {
  id: string;
  company_id: string;
  crawl_job_id: number | null;
  field: string;
  value: string;
  confidence: number;
  source_url: string;
  method: string;
  status: 'pending' | 'accepted' | 'dismissed';
  created_at: Date;
  decided_at: Date | null;
}

export type NewHeldField = Pick<HeldFieldRow, 'field' | 'value' | 'confidence' | 'source_url' | 'method'>;

const COLUMNS = 'id, company_id, crawl_job_id, field, value, confidence, source_url, method, status, created_at, decided_at';

/** The held crawl fields: the crawl module is their one writer. */
export function createHeldFieldsRepo(db: Db) {
  return {
    async pending(companyId: string): Promise<HeldFieldRow[]> {
      return db.query<HeldFieldRow>(`SELECT ${COLUMNS} FROM crawl_held_fields WHERE company_id = $1 AND status = 'pending' ORDER BY field`, [companyId]);
    },

    /** Field and value pairs an owner or administrator dismissed before (never offered again). */
    async dismissed(companyId: string): Promise<Set<string>> {
      const rows = await db.query<{ field: string; value: string }>(`SELECT field, value FROM crawl_held_fields WHERE company_id = $1 AND status = 'dismissed'`, [companyId]);
      return new Set(rows.map((r) => `${r.field}\u0000${r.value}`));
    },

    /**
     * The company's open held fields become these (a newer crawl replaces what an older one held, under a new id, so
     * a screen showing the old value cannot use the new one). One transaction, and an upsert on the one open value
     * per field, so two crawls of the same company finishing together do not collide on that index.
     */
    async replacePending(companyId: string, crawlJobId: number | null, held: NewHeldField[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM crawl_held_fields WHERE company_id = $1 AND status = 'pending' AND field <> ALL($2::text[])`, [companyId, held.map((h) => h.field)]);
        for (const h of held) {
          await tx.query(
            `INSERT INTO crawl_held_fields (company_id, crawl_job_id, field, value, confidence, source_url, method) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (company_id, field) WHERE status = 'pending' DO UPDATE
               SET id = gen_random_uuid(), crawl_job_id = EXCLUDED.crawl_job_id, value = EXCLUDED.value, confidence = EXCLUDED.confidence,
                   source_url = EXCLUDED.source_url, method = EXCLUDED.method, created_at = now()`,
            [companyId, crawlJobId, h.field, h.value, h.confidence, h.source_url, h.method],
          );
        }
      });
    },

    /** Every company's open held fields, oldest first (the administrators' queue), with the company's name and site. */
    async pendingQueue(limit: number, offset: number): Promise<{ rows: (HeldFieldRow & { company_name: string; website_url: string })[]; total: number }> {
      const where = `FROM crawl_held_fields h JOIN companies c ON c.id = h.company_id AND c.deleted_at IS NULL WHERE h.status = 'pending'`;
      const [rows, count] = await Promise.all([
        db.query<HeldFieldRow & { company_name: string; website_url: string }>(
          `SELECT ${COLUMNS.split(', ').map((c) => `h.${c}`).join(', ')}, c.name AS company_name, c.website_url ${where} ORDER BY h.created_at, h.id LIMIT $1 OFFSET $2`,
          [limit, offset],
        ),
        db.query<{ n: number }>(`SELECT count(*)::int AS n ${where}`),
      ]);
      return { rows, total: count[0]!.n };
    },

    /** Closes the open held field `id`; undefined when it is not open (decided already, replaced by a newer crawl). */
    async decide(companyId: string, id: string, status: 'accepted' | 'dismissed'): Promise<HeldFieldRow | undefined> {
      return (await db.query<HeldFieldRow>(
        `UPDATE crawl_held_fields SET status = $3, decided_at = now() WHERE id = $1 AND company_id = $2 AND status = 'pending' RETURNING ${COLUMNS}`,
        [id, companyId, status],
      ))[0];
    },
  };
}

export type HeldFieldsRepo = ReturnType<typeof createHeldFieldsRepo>;
