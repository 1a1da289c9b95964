import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { AppError, invalid } from '../../platform/errors.js';
import { sniffImage } from './logo.js';
import { PHOTO_MAX_BYTES, PHOTO_MAX_INPUT_PX, PHOTO_OUTPUT_PX } from './photo-limits.js';

/**
 * Gallery photo normalisation. As with logos, the uploaded bytes are never stored or served: the
 * type is decided from the content (and sharp's decoder must agree), the size and pixel bounds are
 * enforced, and what is kept is a fresh JPEG of at most 1600 px on its longer side, turned upright
 * by its EXIF orientation and written without any metadata (no camera, no GPS position, no owner).
 */
export interface NormalisedPhoto {
  bytes: Buffer;
  contentType: 'image/jpeg';
  width: number;
  height: number;
  etag: string;
}

const bad = (msg: string) => invalid(['body', 'file'], msg, undefined, 'value_error');

export async function normalisePhoto(input: Buffer): Promise<NormalisedPhoto> {
  if (input.length > PHOTO_MAX_BYTES) throw new AppError('payload_too_large', `The photo is larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB; upload a smaller file`);
  if (input.length === 0) throw invalid(['body', 'file'], 'The uploaded file is empty', undefined, 'missing');
  const format = sniffImage(input);
  if (!format || format === 'svg') throw new AppError('unsupported_media_type', 'A photo must be a JPEG, PNG or WebP image (detected from the file content, not its name)');
  let meta: Metadata;
  try {
    // limitInputPixels off for the header read only: the bound is checked below with a clear message.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw bad(`The file looks like ${format.toUpperCase()} but cannot be decoded`);
  }
  if (meta.format !== format) throw bad(`The file content is not a valid ${format.toUpperCase()} image`);
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw bad('The image has no size');
  if (width > PHOTO_MAX_INPUT_PX || height > PHOTO_MAX_INPUT_PX) {
    throw bad(`The image is ${width}×${height} px; at most ${PHOTO_MAX_INPUT_PX}×${PHOTO_MAX_INPUT_PX} px is accepted`);
  }
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await sharp(input, { limitInputPixels: PHOTO_MAX_INPUT_PX * PHOTO_MAX_INPUT_PX })
      .rotate()
      .resize(PHOTO_OUTPUT_PX, PHOTO_OUTPUT_PX, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw bad(`The ${format.toUpperCase()} image cannot be decoded`);
  }
  return {
    bytes: out.data,
    contentType: 'image/jpeg',
    width: out.info.width,
    height: out.info.height,
    etag: createHash('sha256').update(out.data).digest('hex').slice(0, 32),
  };
}
