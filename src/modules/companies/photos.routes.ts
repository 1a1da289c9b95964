import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { actorOf, BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import { invalid } from '../../platform/errors.js';
import { readSingleFileUpload } from '../../platform/multipart-upload.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { PHOTO_CAPTION_MAX, PHOTO_MAX_BYTES, PHOTO_MAX_COUNT, PHOTO_MAX_INPUT_PX, PHOTO_OUTPUT_PX } from './photo-limits.js';
import { GalleryResponseSchema, PhotoChangeSchema, PhotoIdParams, PhotoUploadBodySchema, ToolIdParams } from './tools.schemas.js';
import type { ToolsService } from './tools.service.js';

export interface PhotosRoutesOptions {
  tools: ToolsService;
  guards: Guards;
}

const tags = ['tools'];
const auth = { 401: err, 404: err };

/** The multipart body of an upload: one file part "file" and an optional text part "caption". */
async function readUpload(req: FastifyRequest): Promise<{ file: Buffer; caption: string }> {
  const { file, fields } = await readSingleFileUpload(req, { what: 'photo', maxBytes: PHOTO_MAX_BYTES, textFields: ['caption'] });
  const caption = fields.caption ?? '';
  if (caption.length > PHOTO_CAPTION_MAX) throw invalid(['body', 'caption'], `String should have at most ${PHOTO_CAPTION_MAX} characters`, caption, 'string_too_long');
  return { file, caption };
}

/** The company gallery under /api/tools/{tool_id}/photos: owners and administrators change it; anyone reads a published photo. */
export async function photosRoutes(app: App, { tools, guards }: PhotosRoutesOptions): Promise<void> {
  // Scoped to this plugin: the photo upload's own bounds.
  await app.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 4096 } });
  const manager = guards.requireCompanyManager('tool_id');

  app.post('/:tool_id/photos', {
    onRequest: manager,
    // As for the logo: the body schema is for the OpenAPI document only (the file is streamed by the handler).
    config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: PhotoUploadBodySchema }, url }) },
    schema: {
      operationId: 'tools.uploadPhoto', tags, summary: 'Add a photo to the gallery (owner or admin)', security: BEARER_SECURITY,
      consumes: ['multipart/form-data'],
      description:
        `multipart/form-data with one file part "file" (JPEG, PNG or WebP, recognised by content: anything else is 415) and an optional text part "caption" (at most ${PHOTO_CAPTION_MAX} characters). ` +
        `At most ${PHOTO_MAX_BYTES / 1024 / 1024} MB (413) and ${PHOTO_MAX_INPUT_PX}×${PHOTO_MAX_INPUT_PX} px (422); at most ${PHOTO_MAX_COUNT} photos per company (409). ` +
        `Stored as a JPEG of at most ${PHOTO_OUTPUT_PX} px, turned upright, with all metadata (camera, GPS position) removed; the photo is added at the end of the gallery.`,
      params: ToolIdParams,
      response: { 201: GalleryResponseSchema, 400: err, ...auth, 409: err, 413: err, 415: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const { file, caption } = await readUpload(req);
    return reply.status(201).send(await tools.uploadPhoto(req.params.tool_id, file, caption, actorOf(req)));
  });

  app.patch('/:tool_id/photos/:photo_id', {
    onRequest: manager,
    schema: {
      operationId: 'tools.changePhoto', tags, summary: 'Caption or move a photo (owner or admin)', security: BEARER_SECURITY,
      params: PhotoIdParams,
      body: PhotoChangeSchema,
      response: { 200: GalleryResponseSchema, ...auth, ...errorResponses },
    },
  }, async (req) => tools.changePhoto(req.params.tool_id, req.params.photo_id, { caption: req.body.caption?.trim(), position: req.body.position }, actorOf(req)));

  app.delete('/:tool_id/photos/:photo_id', {
    onRequest: manager,
    schema: {
      operationId: 'tools.deletePhoto', tags, summary: 'Remove a photo from the gallery (owner or admin)', security: BEARER_SECURITY,
      params: PhotoIdParams,
      response: { 200: GalleryResponseSchema, ...auth, ...errorResponses },
    },
  }, async (req) => tools.deletePhoto(req.params.tool_id, req.params.photo_id, actorOf(req)));

  app.get('/:tool_id/photos/:photo_id', {
    schema: {
      operationId: 'tools.photo', tags, summary: 'A gallery photo (JPEG)',
      description: 'Public, stable URL while the photo is in the gallery. Cached for a day, then revalidated with ETag (304).',
      params: PhotoIdParams,
      response: { 200: Type.String({ format: 'binary', description: 'image/jpeg' }), 304: Type.Null(), 404: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const photo = await tools.getPhoto(req.params.tool_id, req.params.photo_id);
    const etag = `"${photo.etag}"`;
    reply
      .header('cache-control', 'public, max-age=86400, must-revalidate')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'cross-origin');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send(null);
    return reply.type(photo.content_type).send(photo.bytes);
  });
}
