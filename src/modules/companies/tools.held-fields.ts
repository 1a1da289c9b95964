import type { Actor } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { CompanyRecord } from './company.record.js';
import type { ToolDetailResponse } from './tools.schemas.js';

/** A crawled value below its publish threshold, waiting for the owner or an administrator (issue 40). */
export interface HeldField {
  id: string;
  field: 'name' | 'phone' | 'city' | 'country' | 'address';
  value: string;
  confidence: number;
  source_url: string;
  method: string;
  found_at: string;
}

/** The crawl module's held fields, as the owner's screens use them (services.ts wires the crawl service in). */
export interface HeldFieldsPort {
  heldFields(companyId: string): Promise<HeldField[]>;
  decideHeldField(companyId: string, id: string, status: 'accepted' | 'dismissed'): Promise<HeldField>;
}

export interface ToolsHeldFieldsDeps {
  held: HeldFieldsPort;
  getRow(id: string): Promise<CompanyRecord>;
  /** The owner's edit's own checks, run before the value is taken. */
  validatePatch(raw: unknown): unknown;
  /** The owner's edit (PUT /api/tools/{id}): history, freshness stamps, search index, the change feed. */
  update(id: string, raw: unknown, actor: Actor): Promise<ToolDetailResponse>;
}

/**
 * The values a crawl was not sure of: list them, use one (it becomes the caller's edit, like a change made in
 * the profile form: kept by later crawls, in the history, searchable) or dismiss it (not offered again).
 */
export function createToolsHeldFields({ held, getRow, validatePatch, update }: ToolsHeldFieldsDeps) {
  const open = async (id: string, heldId: string) => (await held.heldFields(id)).find((h) => h.id === heldId);
  return {
    async heldFields(id: string): Promise<{ held: HeldField[] }> {
      await getRow(id);
      return { held: await held.heldFields(id) };
    },

    async acceptHeldField(id: string, heldId: string, actor: Actor): Promise<{ accepted: HeldField; held: HeldField[]; company: ToolDetailResponse }> {
      await getRow(id);
      const found = await open(id, heldId);
      if (!found) throw new AppError('not_found', 'This value is no longer waiting: it was used or dismissed already, or a newer crawl replaced it. Reload to see what is waiting now.');
      // The edit's own rules first; the value is written before it is marked used, so a failed edit leaves it waiting.
      validatePatch({ [found.field]: found.value });
      const company = await update(id, { [found.field]: found.value }, actor);
      const accepted = await held.decideHeldField(id, heldId, 'accepted');
      return { accepted, held: await held.heldFields(id), company };
    },

    async dismissHeldField(id: string, heldId: string): Promise<{ dismissed: HeldField; held: HeldField[] }> {
      await getRow(id);
      const dismissed = await held.decideHeldField(id, heldId, 'dismissed');
      return { dismissed, held: await held.heldFields(id) };
    },
  };
}
