import { randomUUID } from 'node:crypto';
import type { Actor } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { CompaniesService } from './companies.service.js';
import { createCompanyPhotosRepo } from './company-photos.repo.js';
import { publicPhotos, type CompanyPhoto, type CompanyRecord } from './company.record.js';
import { normalisePhoto } from './photo.js';
import { PHOTO_MAX_COUNT } from './photo-limits.js';

export interface ToolsPhotosDeps {
  db: Db;
  companies: CompaniesService;
  baseUrl: string;
  getRow(id: string): Promise<CompanyRecord>;
}

/** The gallery change as the edit history keeps it: how many photos before and after. */
const countChange = (before: CompanyPhoto[], after: CompanyPhoto[]) => [{ field: 'photos', before: `${before.length} photos`, after: `${after.length} photos` }];

/**
 * The gallery (issue 39): owners and administrators add, caption, reorder and remove photos. Each
 * change is a company edit (history, audit, change feed through companies.photos) whose photo row is
 * written in the same transaction.
 */
export function createToolsPhotos({ db, companies, baseUrl, getRow }: ToolsPhotosDeps) {
  const gallery = (row: CompanyRecord) => ({ photos: publicPhotos(baseUrl, row), max_photos: PHOTO_MAX_COUNT });
  const find = (row: CompanyRecord, photoId: string) => {
    const i = row.photos.findIndex((p) => p.id === photoId);
    if (i < 0) throw notFound('Photo');
    return i;
  };

  return {
    async uploadPhoto(id: string, file: Buffer, caption: string, actor: Actor) {
      const row = await getRow(id);
      if (row.photos.length >= PHOTO_MAX_COUNT) throw full();
      const photo = await normalisePhoto(file);
      const photoId = randomUUID();
      const entry: CompanyPhoto = { id: photoId, width: photo.width, height: photo.height, caption };
      const written = await companies.edit(id, {
        actor,
        source: 'photos',
        plan: (current) => {
          // Planned on the row as it is when written (a change meanwhile plans again): two uploads at once cannot pass the limit together.
          if (current.photos.length >= PHOTO_MAX_COUNT) throw full();
          const photos = [...current.photos, entry];
          return { values: { photos }, diff: countChange(current.photos, photos), ownerEdited: current.owner_edited_fields };
        },
        alongside: (tx) => createCompanyPhotosRepo(tx).insertPhoto(id, photoId, {
          content_type: photo.contentType, bytes: photo.bytes, width: photo.width, height: photo.height, etag: photo.etag, caption,
          source: actor.kind === 'admin' ? 'admin' : 'owner',
        }),
      });
      const all = gallery(written);
      return { photo: all.photos.find((p) => p.id === photoId)!, ...all };
    },

    async changePhoto(id: string, photoId: string, change: { caption?: string | undefined; position?: number | undefined }, actor: Actor) {
      find(await getRow(id), photoId);
      const written = await companies.edit(id, {
        actor,
        source: 'photos',
        plan: (current) => {
          const from = find(current, photoId);
          const photos = current.photos.filter((p) => p.id !== photoId);
          const to = change.position === undefined ? from : Math.min(change.position, photos.length);
          photos.splice(to, 0, { ...current.photos[from]!, caption: change.caption ?? current.photos[from]!.caption });
          const diff = JSON.stringify(photos) === JSON.stringify(current.photos) ? [] : [{ field: 'photos', before: current.photos.map((p) => p.caption), after: photos.map((p) => p.caption) }];
          // Nothing changed: no write, no history entry (the owner's fields are given only with a change, which they do not join).
          return { values: { photos }, diff, ownerEdited: diff.length ? current.owner_edited_fields : undefined };
        },
        alongside: async (tx) => {
          if (change.caption !== undefined) await createCompanyPhotosRepo(tx).setCaption(id, photoId, change.caption);
        },
      });
      const all = gallery(written);
      return { photo: all.photos.find((p) => p.id === photoId)!, ...all };
    },

    async deletePhoto(id: string, photoId: string, actor: Actor) {
      find(await getRow(id), photoId);
      const written = await companies.edit(id, {
        actor,
        source: 'photos',
        plan: (current) => {
          find(current, photoId);
          const photos = current.photos.filter((p) => p.id !== photoId);
          return { values: { photos }, diff: countChange(current.photos, photos), ownerEdited: current.owner_edited_fields };
        },
        alongside: (tx) => createCompanyPhotosRepo(tx).deletePhoto(id, photoId),
      });
      return gallery(written);
    },

    /** The bytes of a published photo (public). */
    async getPhoto(id: string, photoId: string) {
      const photo = await createCompanyPhotosRepo(db).getPhoto(id, photoId);
      if (!photo) throw notFound('Photo');
      return { ...photo, bytes: Buffer.from(photo.bytes) };
    },
  };
}

const full = () => new AppError('conflict', `The gallery holds at most ${PHOTO_MAX_COUNT} photos: remove one before adding another`);
