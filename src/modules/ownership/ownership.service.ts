import type { Queryable } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { CompaniesService } from '../companies/companies.service.js';
import { createOwnershipRepo } from './ownership.repo.js';
import { isUuid } from '../../lib/ids.js';

/**
 * Which user owns which company: the one place every module asks (guards, proposals, crawl,
 * company management, scans, payments). Built before the modules that need it, so none of them
 * reaches into the accounts module or waits for it to be wired.
 */
export function createOwnershipService(deps: { db: Queryable; companies: Pick<CompaniesService, 'getById'> }) {
  const repo = createOwnershipRepo(deps.db);
  return {
    /** Whether the user owns the (live) company; malformed ids are simply not owned. */
    async owns(userId: string, companyId: string): Promise<boolean> {
      if (!isUuid(userId) || !isUuid(companyId)) return false;
      return repo.ownsCompany(userId, companyId);
    },

    /** Whether anyone owns the company's listing (claimed): proposals' delivery, the "Claim this business" offer. */
    isClaimed: (companyId: string): Promise<boolean> => (isUuid(companyId) ? repo.hasOwner(companyId) : Promise.resolve(false)),

    companyIdsOf: (userId: string): Promise<string[]> => (isUuid(userId) ? repo.companyIdsOwnedBy(userId) : Promise.resolve([])),

    ownerEmailsOf: (companyId: string): Promise<string[]> => (isUuid(companyId) ? repo.ownerEmailsOf(companyId) : Promise.resolve([])),

    /** Makes the user an owner of an existing company (idempotent). */
    async claim(userId: string, companyId: string): Promise<void> {
      await deps.companies.getById(companyId);
      if (!isUuid(userId) || !(await repo.userExists(userId))) throw new AppError('not_found', 'User not found');
      await repo.addOwner(userId, companyId);
    },

    /** Records ownership inside the caller's transaction (the sign-in that proves it). */
    addOwnerIn: (tx: Queryable, userId: string, companyId: string): Promise<void> => createOwnershipRepo(tx).addOwner(userId, companyId),
  };
}

export type OwnershipService = ReturnType<typeof createOwnershipService>;
