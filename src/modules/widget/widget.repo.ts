import type { Queryable } from '../../platform/db.js';

export interface WidgetRow {
  company_id: string;
  widget_public_id: string;
  enabled: boolean;
  title: string;
  greeting: string;
  primary_color: string;
  text_color: string;
  position: string;
  allowed_origins: string[];
  sources: string[];
  show_branding: boolean;
  updated_at: string | Date;
}

const COLUMNS = 'company_id, widget_public_id, enabled, title, greeting, primary_color, text_color, position, allowed_origins, sources, show_branding, updated_at';

export type WidgetPatch = Partial<Pick<WidgetRow, 'enabled' | 'title' | 'greeting' | 'primary_color' | 'text_color' | 'position' | 'allowed_origins' | 'sources' | 'show_branding' | 'widget_public_id'>>;

export function createWidgetRepo(db: Queryable) {
  return {
    async findByCompany(companyId: string): Promise<WidgetRow | undefined> {
      const [row] = await db.query<WidgetRow>(`SELECT ${COLUMNS} FROM widget_configs WHERE company_id = $1`, [companyId]);
      return row;
    },

    async findByPublicId(publicId: string): Promise<WidgetRow | undefined> {
      const [row] = await db.query<WidgetRow>(`SELECT ${COLUMNS} FROM widget_configs WHERE widget_public_id = $1`, [publicId]);
      return row;
    },

    /** Creates the default (disabled) configuration once; concurrent first reads get the same row. */
    async ensure(companyId: string, publicId: string): Promise<WidgetRow> {
      await db.query('INSERT INTO widget_configs (company_id, widget_public_id) VALUES ($1, $2) ON CONFLICT (company_id) DO NOTHING', [companyId, publicId]);
      const [row] = await db.query<WidgetRow>(`SELECT ${COLUMNS} FROM widget_configs WHERE company_id = $1`, [companyId]);
      return row!;
    },

    async update(companyId: string, patch: WidgetPatch): Promise<WidgetRow> {
      const sets: string[] = [];
      const params: unknown[] = [companyId];
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined) continue;
        params.push(v);
        sets.push(`${k} = $${params.length}`);
      }
      const [row] = await db.query<WidgetRow>(`UPDATE widget_configs SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE company_id = $1 RETURNING ${COLUMNS}`, params);
      return row!;
    },
  };
}

export type WidgetRepo = ReturnType<typeof createWidgetRepo>;
