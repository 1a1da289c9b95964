import type { AuditRecorder } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import type { LlmClient } from '../../platform/llm.js';
import { orTsQuery, queryTerms } from '../../lib/search-query.js';
import { isoTimeOrNull as iso } from '../../lib/time.js';
import { canonicalCategory, type CompaniesService } from './companies.service.js';
import { normaliseLogo, sniffImage } from './logo.js';
import { createCompanyLogosRepo } from './company-logos.repo.js';
import { createCompanyHistoryRepo } from './company-history.repo.js';
import { createCompanyListingsRepo } from './company-listings.repo.js';
import { createToolsAdmin, SubscriptionStatuses } from './tools.admin.js';
import { createToolsAiEdit } from './tools.ai-edit.js';
import { createToolsPhotos } from './tools.photos.js';
import { createToolsHeldFields, type HeldFieldsPort } from './tools.held-fields.js';
import { createToolsWebsiteCheck, type WebsiteChecksPort } from './tools.website-check.js';
import { createToolsEditing, type SubscriptionRecords } from './tools.editing.js';
import type { ToolDetailResponse, ToolResponse } from './tools.schemas.js';

export type { Actor };
export { decodeCursor, encodeCursor } from './tools.admin.js';

export interface ToolsServiceDeps {
  db: Db;
  companies: CompaniesService;
  llm?: LlmClient | undefined;
  baseUrl: string;
  audit: AuditRecorder;
  /** The payments module's subscription records (shown to managers, granted by administrators). */
  subscriptions: SubscriptionRecords;
  /** The ownership module's lookup (company ids a user owns). */
  ownedCompanyIds: (userId: string) => Promise<string[]>;
  /** Brake on SVG logo uploads per caller (shared by the instances through Redis when configured). */
  svgLogoLimiter?: { hit(key: string): Promise<{ ok: boolean; retryAfterSeconds: number }> };
  /** The crawl module's monthly website checks and their suggestions. */
  websiteChecks: WebsiteChecksPort;
  /** The crawl module's values held below their publish threshold (issue 40). */
  heldFields: HeldFieldsPort;
  /** Webhook events: a company losing its verification is recorded in the same transaction, then dispatched. */
  events?: {
    companyUnverified(q: Queryable, companyId: string): Promise<void>;
    dispatch(): Promise<void>;
  };
}

/**
 * Company management (the spec's "tools" routes): what owners and administrators read and change.
 * Verb groups: reading, editing, deleting and the logo here; the AI edit in tools.ai-edit.ts; the gallery in tools.photos.ts;
 * the monthly website check in tools.website-check.ts; the crawl's held values in tools.held-fields.ts;
 * administrator actions in tools.admin.ts; what they share in tools.editing.ts.
 */
export function createToolsService(deps: ToolsServiceDeps) {
  const { db, baseUrl, audit, companies } = deps;
  const listings = createCompanyListingsRepo(db);
  const editing = createToolsEditing(deps);
  const { toTool, detail, getRow, validatePatch, resolve } = editing;

  const photos = createToolsPhotos({ db, companies, baseUrl, getRow });
  const service = {
    toTool,
    validatePatch,

    async detail(id: string, options: { manage: boolean }): Promise<ToolDetailResponse> {
      return detail(await getRow(id), options.manage);
    },

    async list(o: { q?: string | undefined; category?: string | undefined; limit?: number | undefined }): Promise<ToolResponse[]> {
      let category: string | undefined;
      if (o.category) {
        category = canonicalCategory(o.category);
        if (!category) throw invalid(['query', 'category'], 'Input should be one of the 25 categories (GET /api/v1/agent/categories)', o.category, 'enum');
      }
      const tsquery = o.q ? orTsQuery(queryTerms(o.q)) : undefined;
      if (o.q && !tsquery) return [];
      return (await listings.search(tsquery, category, o.limit ?? 20)).map(toTool);
    },

    recent: async (limit = 8) => (await listings.recent(limit)).map(toTool),
    featured: async (limit = 6) => (await listings.featured(limit)).map(toTool),

    async mine(userId: string): Promise<ToolResponse[]> {
      return (await listings.byIdsByName(await deps.ownedCompanyIds(userId))).map(toTool);
    },

    async update(id: string, raw: unknown, actor: Actor): Promise<ToolDetailResponse> {
      const patch = validatePatch(raw);
      return detail(await companies.edit(id, { actor, source: 'edit', plan: (current) => resolve(current, patch) }), true);
    },

    remove: (id: string, actor: Actor) => companies.remove(id, actor),

    async history(id: string, limit: number, offset: number) {
      await getRow(id);
      const { rows, total } = await createCompanyHistoryRepo(db).listEdits(id, limit, offset);
      return { edits: rows.map((e) => ({ ...e, created_at: iso(e.created_at)! })), total };
    },

    // --- logo ---------------------------------------------------------------------------

    logoUrl: (id: string) => `${baseUrl}/api/tools/${id}/logo`,

    async uploadLogo(id: string, file: Buffer, actor: Actor) {
      await getRow(id);
      if (deps.svgLogoLimiter && sniffImage(file) === 'svg') {
        const hit = await deps.svgLogoLimiter.hit(`${actor.kind}:${actor.id}`);
        if (!hit.ok) {
          throw new AppError('rate_limited', `Too many SVG logos in a short time: try again in ${Math.ceil(hit.retryAfterSeconds / 60)} minutes, or upload a PNG, JPEG or WebP now`, { headers: { 'retry-after': String(hit.retryAfterSeconds) } });
        }
      }
      const logo = await normaliseLogo(file);
      const url = `${baseUrl}/api/tools/${id}/logo`;
      await companies.edit(id, {
        actor,
        source: 'logo',
        plan: (current) => ({ values: { logo_url: url }, diff: [{ field: 'logo_url', before: current.logo_url, after: url }] }),
        alongside: (tx) => createCompanyLogosRepo(tx).putLogo(id, { content_type: logo.contentType, bytes: logo.bytes, width: logo.width, height: logo.height, etag: logo.etag }),
      });
      return { logo_url: url, content_type: logo.contentType, width: logo.width, height: logo.height, size_bytes: logo.bytes.length, original_format: logo.originalFormat };
    },

    async getLogo(id: string) {
      const logo = await createCompanyLogosRepo(db).getLogo(id);
      if (!logo) throw notFound('Logo');
      return { ...logo, bytes: Buffer.from(logo.bytes) };
    },

    ...createToolsAiEdit({ db, llm: deps.llm, editing, companies }),
    ...photos,
    ...createToolsAdmin({ db, audit, editing, companies, subscriptions: deps.subscriptions, events: deps.events }),
  };
  return {
    ...service,
    ...createToolsWebsiteCheck({ checks: deps.websiteChecks, getRow, validatePatch, update: service.update, uploadPhoto: photos.uploadPhoto }),
    ...createToolsHeldFields({ held: deps.heldFields, getRow, validatePatch, update: service.update }),
  };
}

export type ToolsService = ReturnType<typeof createToolsService>;

export { SubscriptionStatuses };
