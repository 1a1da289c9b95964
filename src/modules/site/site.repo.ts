import type { Queryable } from '../../platform/db.js';

/** The site's own reads: old slugs and slugs of listed companies (0013_company_slugs.sql), category counts, recency and sitemap listings. Profiles and search go through their services. */
export function createSiteRepo(db: Queryable) {
  return {
    /** The current slug of the live company that once had `slug`. */
    async currentSlugForOld(slug: string): Promise<string | undefined> {
      const [row] = await db.query<{ slug: string }>(
        `SELECT c.slug FROM company_old_slugs o JOIN companies c ON c.id = o.company_id WHERE o.slug = $1 AND c.deleted_at IS NULL`,
        [slug],
      );
      return row?.slug;
    },

    async slugsOf(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.query<{ id: string; slug: string }>('SELECT id, slug FROM companies WHERE id = ANY($1::uuid[])', [ids]);
      return new Map(rows.map((r) => [r.id, r.slug]));
    },

    async categoryCounts(): Promise<Map<string, number>> {
      const rows = await db.query<{ category: string; n: number }>(
        'SELECT category, count(*)::int AS n FROM companies WHERE deleted_at IS NULL GROUP BY category',
      );
      return new Map(rows.map((r) => [r.category, r.n]));
    },

    async recentIds(limit: number): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        'SELECT id FROM companies WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $1',
        [limit],
      );
      return rows.map((r) => r.id);
    },

    /** One entry per sitemap of `size` live companies (in id order): its number and newest change. */
    async sitemapChunks(size: number): Promise<{ chunk: number; lastmod: Date }[]> {
      return db.query<{ chunk: number; lastmod: Date }>(
        `SELECT (rn / $1)::int + 1 AS chunk, max(updated_at) AS lastmod
           FROM (SELECT updated_at, row_number() OVER (ORDER BY id) - 1 AS rn FROM companies WHERE deleted_at IS NULL) t
          GROUP BY 1 ORDER BY 1`,
        [size],
      );
    },

    async sitemapEntries(chunk: number, size: number): Promise<{ slug: string; updated_at: Date }[]> {
      return db.query<{ slug: string; updated_at: Date }>(
        'SELECT slug, updated_at FROM companies WHERE deleted_at IS NULL ORDER BY id LIMIT $1 OFFSET $2',
        [size, (chunk - 1) * size],
      );
    },
  };
}

export type SiteRepo = ReturnType<typeof createSiteRepo>;
