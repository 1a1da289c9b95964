import type { Actor } from '../../platform/auth.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { CompanyRecord } from './company.record.js';
import { PHOTO_MAX_COUNT } from './photo-limits.js';
import type { ToolDetailResponse } from './tools.schemas.js';

/** What a monthly website check found: field values the site now states differently, and pictures of the site. */
export interface PendingSuggestion {
  id: string;
  changes: Record<string, { current: unknown; proposed: unknown }>;
  photos: { url: string; caption: string }[];
}

export interface WebsiteCheckStatus {
  monthly: boolean;
  next_check_at: string | null;
  last_check_at: string | null;
  suggestion: (PendingSuggestion & { found_at: string }) | null;
}

/** The crawl module's website checks, as the owner's screens use them (services.ts wires the crawl service in). */
export interface WebsiteChecksPort {
  websiteCheck(companyId: string): Promise<WebsiteCheckStatus>;
  setWebsiteCheck(companyId: string, monthly: boolean, userId: string | null): Promise<WebsiteCheckStatus>;
  pendingSuggestion(companyId: string): Promise<PendingSuggestion | undefined>;
  resolveSuggestion(companyId: string, suggestionId: string, accepted: { fields: string[]; photos: string[] }): Promise<unknown>;
  fetchPicture(url: string): Promise<{ bytes: Buffer } | { problem: string }>;
}

export interface ToolsWebsiteCheckDeps {
  checks: WebsiteChecksPort;
  getRow(id: string): Promise<CompanyRecord>;
  /** The owner's edit's own checks, run before anything is taken (a value the site states may not pass them). */
  validatePatch(raw: unknown): unknown;
  /** The owner's edit (PUT /api/tools/{id}): history, freshness stamps, the change feed. */
  update(id: string, raw: unknown, actor: Actor): Promise<ToolDetailResponse>;
  uploadPhoto(id: string, file: Buffer, caption: string, actor: Actor): Promise<unknown>;
}

export interface AcceptResult {
  applied_fields: string[];
  photos_added: string[];
  problems: string[];
  check: WebsiteCheckStatus;
}

const proposedValues = (pending: PendingSuggestion, fields: string[]) => Object.fromEntries(fields.map((f) => [f, pending.changes[f]!.proposed]));

/**
 * The owner's side of the monthly website check (issue 39): turn it on or off, read what the last check
 * found, accept some of it (each accepted value is the owner's edit, kept in the history; each accepted
 * picture is fetched and added to the gallery like an upload) or dismiss it.
 */
export function createToolsWebsiteCheck({ checks, getRow, validatePatch, update, uploadPhoto }: ToolsWebsiteCheckDeps) {
  return {
    async websiteCheck(id: string): Promise<WebsiteCheckStatus> {
      await getRow(id);
      return checks.websiteCheck(id);
    },

    async setWebsiteCheck(id: string, monthly: boolean, actor: Actor): Promise<WebsiteCheckStatus> {
      await getRow(id);
      return checks.setWebsiteCheck(id, monthly, actor.kind === 'user' ? actor.id : null);
    },

    async acceptSuggestion(id: string, suggestionId: string, choice: { fields: string[]; photos: string[] }, actor: Actor): Promise<AcceptResult> {
      const row = await getRow(id);
      const pending = await checks.pendingSuggestion(id);
      const fields = [...new Set(choice.fields)];
      const photos = [...new Set(choice.photos)];
      if (pending && pending.id === suggestionId) {
        fields.forEach((f, i) => {
          if (!(f in pending.changes)) throw invalid(['body', 'fields', i], `"${f}" is not among the changes this check found: choose from ${Object.keys(pending.changes).join(', ') || 'none (it found only pictures)'}`, f, 'enum');
        });
        const offered = new Set(pending.photos.map((p) => p.url));
        photos.forEach((u, i) => {
          if (!offered.has(u)) throw invalid(['body', 'photos', i], 'This picture is not among those the check found', u, 'enum');
        });
        if (fields.length) validatePatch(proposedValues(pending, fields));
        if (photos.length && row.photos.length + photos.length > PHOTO_MAX_COUNT) {
          throw invalid(['body', 'photos'], `The gallery holds ${PHOTO_MAX_COUNT} photos and has ${row.photos.length}: choose at most ${Math.max(0, PHOTO_MAX_COUNT - row.photos.length)} pictures, or remove some photos first`, photos.length, 'too_long');
        }
      }
      // Taken first, so a second click (or another manager at the same time) cannot apply it twice; 404 when it is not open.
      await checks.resolveSuggestion(id, suggestionId, { fields, photos });
      const problems: string[] = [];
      if (fields.length) await update(id, proposedValues(pending!, fields), actor);
      const added: string[] = [];
      for (const url of photos) {
        const caption = pending!.photos.find((p) => p.url === url)?.caption ?? '';
        const got = await checks.fetchPicture(url);
        if ('problem' in got) {
          problems.push(`A picture from your website could not be added: ${got.problem}.`);
          continue;
        }
        try {
          await uploadPhoto(id, got.bytes, caption, actor);
          added.push(url);
        } catch (err) {
          // The refusals of the upload rules are sentences for the owner; anything else stays internal.
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          problems.push(`A picture from your website could not be added: ${err.message.replace(/\.$/, '')}.`);
        }
      }
      return { applied_fields: fields, photos_added: added, problems, check: await checks.websiteCheck(id) };
    },

    async dismissSuggestion(id: string, suggestionId: string): Promise<WebsiteCheckStatus> {
      await getRow(id);
      await checks.resolveSuggestion(id, suggestionId, { fields: [], photos: [] });
      return checks.websiteCheck(id);
    },
  };
}
