import { randomBytes } from 'node:crypto';

/** One part of a multipart/form-data body: a file when it has a filename, a text field otherwise. */
export interface FormPart {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body for app.inject: `{ payload, headers }`. */
export function multipartForm(parts: FormPart[]) {
  const boundary = `----agp${randomBytes(8).toString('hex')}`;
  const chunks = parts.flatMap((p) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}` : ''}\r\n\r\n`),
    Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
