import type { Queryable } from '../../platform/db.js';

export interface PhotoRow {
  id: string;
  company_id: string;
  content_type: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  etag: string;
  caption: string;
  created_at: Date;
}

/** Gallery photo bytes (photo.ts normalises them); the published order is companies.photos. */
export function createCompanyPhotosRepo(db: Queryable) {
  return {
    /** One photo of a live company's published gallery. */
    async getPhoto(companyId: string, photoId: string): Promise<PhotoRow | undefined> {
      const rows = await db.query<PhotoRow>(
        `SELECT p.id::text, p.company_id::text, p.content_type, p.bytes, p.width, p.height, p.etag, p.caption, p.created_at
           FROM company_photos p JOIN companies c ON c.id = p.company_id AND c.deleted_at IS NULL
          WHERE p.company_id = $1 AND p.id = $2 AND c.photos @> jsonb_build_array(jsonb_build_object('id', p.id::text))`,
        [companyId, photoId],
      );
      return rows[0];
    },

    async insertPhoto(companyId: string, id: string, photo: { content_type: string; bytes: Uint8Array; width: number; height: number; etag: string; caption: string; source: 'owner' | 'admin' }): Promise<void> {
      await db.query(
        `INSERT INTO company_photos (id, company_id, content_type, bytes, width, height, etag, caption, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [id, companyId, photo.content_type, photo.bytes, photo.width, photo.height, photo.etag, photo.caption, photo.source],
      );
    },

    async setCaption(companyId: string, photoId: string, caption: string): Promise<void> {
      await db.query('UPDATE company_photos SET caption = $3 WHERE company_id = $1 AND id = $2', [companyId, photoId, caption]);
    },

    async deletePhoto(companyId: string, photoId: string): Promise<void> {
      await db.query('DELETE FROM company_photos WHERE company_id = $1 AND id = $2', [companyId, photoId]);
    },
  };
}
