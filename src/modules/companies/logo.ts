import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { AppError, invalid } from '../../platform/errors.js';
import { renderSvg, type SvgRenderLimits } from './svg-render.js';

/**
 * Logo normalisation. The uploaded bytes are never stored or served: the type is decided from
 * the content (magic bytes, then sharp's own decoder must agree), the size and pixel bounds are
 * enforced, and what is kept is a fresh PNG of at most 512 px. An SVG is rasterised by sharp
 * (librsvg, which runs no scripts and loads no external resources), so no active content is
 * ever served back.
 */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_MAX_INPUT_PX = 4096;
export const LOGO_OUTPUT_PX = 512;

export type LogoFormat = 'png' | 'jpeg' | 'webp' | 'svg';

/** The format by content only (file names and declared types are ignored). */
export function sniffImage(buf: Uint8Array): LogoFormat | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  // SVG is text: an optional BOM, XML declaration, comments and doctype, then <svg.
  const head = b.subarray(0, 4096).toString('utf8').replace(/^\ufeff/, '');
  const rest = head.replace(/^\s*(<\?xml[\s\S]*?\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, '');
  if (/^<svg[\s>]/i.test(rest)) return 'svg';
  return undefined;
}

export interface NormalisedLogo {
  bytes: Buffer;
  contentType: 'image/png';
  width: number;
  height: number;
  etag: string;
  originalFormat: LogoFormat;
}

/** `svgLimits`: the SVG render's bounds (svg-render.ts); the upload route keeps the defaults. */
export async function normaliseLogo(input: Buffer, svgLimits: SvgRenderLimits = {}): Promise<NormalisedLogo> {
  if (input.length > LOGO_MAX_BYTES) throw new AppError('payload_too_large', `The logo is larger than ${LOGO_MAX_BYTES / 1024 / 1024} MB; upload a smaller file`);
  if (input.length === 0) throw invalid(['body', 'file'], 'The uploaded file is empty', undefined, 'missing');
  const format = sniffImage(input);
  if (!format) {
    throw new AppError('unsupported_media_type', 'The logo must be a PNG, JPEG, WebP or SVG image (detected from the file content, not its name)');
  }
  let meta: Metadata;
  try {
    // limitInputPixels off for the header read only: the bound is checked below with a clear message.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw invalid(['body', 'file'], `The file looks like ${format.toUpperCase()} but cannot be decoded`, undefined, 'value_error');
  }
  if (meta.format !== format) {
    throw invalid(['body', 'file'], `The file content is not a valid ${format.toUpperCase()} image`, undefined, 'value_error');
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw invalid(['body', 'file'], 'The image has no size', undefined, 'value_error');
  if (width > LOGO_MAX_INPUT_PX || height > LOGO_MAX_INPUT_PX) {
    throw invalid(['body', 'file'], `The image is ${width}×${height} px; at most ${LOGO_MAX_INPUT_PX}×${LOGO_MAX_INPUT_PX} px is accepted`, undefined, 'value_error');
  }
  // A small SVG (a 24×24 viewBox) is rendered at a density that gives a sharp 512 px raster.
  const density = format === 'svg' ? Math.min(2400, Math.max(72, Math.ceil((72 * LOGO_OUTPUT_PX) / Math.max(width, height)))) : undefined;
  let bytes: Buffer;
  if (format === 'svg') {
    // Bounded in CPU time and concurrency (svg-render.ts): an SVG can cost far more than its size.
    bytes = await renderSvg(input, density!, LOGO_OUTPUT_PX, svgLimits);
  } else {
    try {
      bytes = await sharp(input, { limitInputPixels: LOGO_MAX_INPUT_PX * LOGO_MAX_INPUT_PX * 4 })
        .rotate()
        .resize(LOGO_OUTPUT_PX, LOGO_OUTPUT_PX, { fit: 'inside', withoutEnlargement: true })
        .png({ compressionLevel: 9 })
        .toBuffer();
    } catch {
      throw invalid(['body', 'file'], `The ${format.toUpperCase()} image cannot be decoded`, undefined, 'value_error');
    }
  }
  const { width: outWidth = 0, height: outHeight = 0 } = await sharp(bytes).metadata();
  return {
    bytes,
    contentType: 'image/png',
    width: outWidth,
    height: outHeight,
    etag: createHash('sha256').update(bytes).digest('hex').slice(0, 32),
    originalFormat: format,
  };
}
