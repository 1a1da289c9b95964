import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from './errors.js';

export interface UploadRules {
  /** What the file is, in the words people read: "photo", "logo". */
  what: string;
  maxBytes: number;
  /** Text parts allowed beside the file (for example "caption"); any other part is a 422 naming it. */
  textFields?: readonly string[];
}

export interface Upload {
  file: Buffer;
  fields: Record<string, string>;
}

/**
 * Reads a multipart/form-data upload of one file part named "file" and the allowed text parts,
 * turning every refusal of the multipart parser into a sentence: too large is 413, too many parts 422,
 * anything else malformed is 400 (a bad body is never a server fault).
 */
export async function readSingleFileUpload(req: FastifyRequest, rules: UploadRules): Promise<Upload> {
  const allowed = rules.textFields ?? [];
  const expected = allowed.length
    ? `send one file part named "file" and, if you like, ${allowed.map((f) => `a "${f}"`).join(' and ')}`
    : 'send exactly one file part named "file"';
  if (!req.isMultipart()) throw new AppError('unsupported_media_type', `Send the ${rules.what} as multipart/form-data with a file part named "file"`);
  let file: Buffer | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file' && part.fieldname === 'file') {
        if (file) throw invalid(['body', 'file'], `Only one file: ${expected}`, undefined, 'too_long');
        file = await part.toBuffer();
      } else if (part.type === 'field' && allowed.includes(part.fieldname)) {
        fields[part.fieldname] = String(part.value ?? '').trim();
      } else {
        throw invalid(['body', part.fieldname], `Unexpected part "${part.fieldname}": ${expected}`, undefined, 'extra_forbidden');
      }
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', `The ${rules.what} is larger than ${rules.maxBytes / 1024 / 1024} MB; upload a smaller file`);
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw invalid(['body'], expected.charAt(0).toUpperCase() + expected.slice(1), undefined, 'too_long');
    }
    throw new AppError('bad_request', 'Malformed multipart/form-data body', { cause: e });
  }
  if (!file) throw invalid(['body', 'file'], `Field required: a file part with the ${rules.what}`, undefined, 'missing');
  return { file, fields };
}
