import { createHash } from 'node:crypto';
import fs from 'node:fs';

/**
 * A file of named typed arrays and one JSON value (the search index's snapshot, issue 41): a small header (magic,
 * header length, JSON naming each array's type, length and offset), then each array's bytes, 8-byte aligned, in the
 * machine's byte order (the header records it; a file from another byte order is refused). Written synchronously, so
 * that what it holds is one state of the arrays; read asynchronously in chunks, straight into arrays the caller may
 * allocate (a shared buffer with room to grow), so that a large file neither blocks the event loop nor is held twice.
 * Arrays the writer is told to page-align (at 64 KiB, the largest page size of common systems) can instead be mapped
 * in place (`map`, with the native mapping call): the search index's half-float rows, a gigabyte at 1M companies.
 */
/**
 * A native mapping call (platform/native.ts): an ArrayBuffer of `capacity` bytes whose first `length` bytes are
 * `path`'s from `offset` (a page multiple), mapped privately (reads from the shared page cache, a write copies its page).
 */
export type MapFile = (path: string, offset: number, length: number, capacity: number) => ArrayBuffer;
export type NumericArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
type Kind = 'u8' | 'u16' | 'u32' | 'i32' | 'f32' | 'f64';

const MAGIC = 0x58495041; // "APIX", little-endian
const CHUNK = 16 << 20;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export interface ArraySection {
  name: string;
  kind: Kind;
  length: number;
  offset: number;
}
interface Header {
  littleEndian: boolean;
  /** The data's start is a multiple of this (absent: 8); page-aligned sections' offsets are multiples of PAGE_ALIGN. */
  dataAlign?: number;
  meta: unknown;
  sections: ArraySection[];
}

function kindOf(a: NumericArray): Kind {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Float32Array) return 'f32';
  return 'f64';
}

function view(kind: Kind, buffer: ArrayBuffer, length: number): NumericArray {
  switch (kind) {
    case 'u8': return new Uint8Array(buffer, 0, length);
    case 'u16': return new Uint16Array(buffer, 0, length);
    case 'u32': return new Uint32Array(buffer, 0, length);
    case 'i32': return new Int32Array(buffer, 0, length);
    case 'f32': return new Float32Array(buffer, 0, length);
    case 'f64': return new Float64Array(buffer, 0, length);
  }
}

function allocate(kind: Kind, length: number): NumericArray {
  switch (kind) {
    case 'u8': return new Uint8Array(length);
    case 'u16': return new Uint16Array(length);
    case 'u32': return new Uint32Array(length);
    case 'i32': return new Int32Array(length);
    case 'f32': return new Float32Array(length);
    case 'f64': return new Float64Array(length);
  }
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;
/** Where page-aligned arrays start: a multiple of every page size in common use (4 KiB x86, 16 and 64 KiB arm64). */
const PAGE_ALIGN = 65_536;
const alignTo = (n: number, to: number) => Math.ceil(n / to) * to;
const bytesOf = (a: NumericArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Where each array of a file lies (absolute start of the data, each array's offset from it): enough to map one. */
export interface ArrayFileLayout {
  start: number;
  sections: readonly ArraySection[];
}

/**
 * Loads one array with room for `capacity` elements (at least its length): mapped in place when it can be, else read
 * into a new array.
 */
export type ArrayLoader = (name: string, capacity?: number) => Promise<NumericArray>;
/** Maps one array in place with room for `capacity` elements (at least its length); undefined when it cannot be. */
export type ArrayMapper = (name: string, capacity?: number) => NumericArray | undefined;

/**
 * Writes `meta` and `arrays` to `file` (replacing it) and says where each lies; the arrays named in `pageAligned` can
 * be mapped (`mapArray`, a reader's `map`).
 */
export function writeArrayFile(file: string, meta: unknown, arrays: Record<string, NumericArray>, pageAligned: readonly string[] = []): ArrayFileLayout {
  const sections: ArraySection[] = [];
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    if (pageAligned.includes(name)) offset = alignTo(offset, PAGE_ALIGN);
    sections.push({ name, kind: kindOf(a), length: a.length, offset });
    offset = align8(offset + a.byteLength);
  }
  const dataAlign = pageAligned.length > 0 ? PAGE_ALIGN : undefined;
  const header = Buffer.from(JSON.stringify({ littleEndian: LITTLE_ENDIAN, ...(dataAlign ? { dataAlign } : {}), meta, sections } satisfies Header));
  const start = alignTo(8 + header.length, dataAlign ?? 8);
  const prefix = Buffer.alloc(start);
  prefix.writeUInt32LE(MAGIC, 0);
  prefix.writeUInt32LE(header.length, 4);
  header.copy(prefix, 8);
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, prefix, 0, prefix.length, 0);
    for (const s of sections) {
      const bytes = bytesOf(arrays[s.name]!);
      for (let at = 0; at < bytes.length; at += CHUNK) {
        const part = bytes.subarray(at, Math.min(bytes.length, at + CHUNK));
        let written = 0;
        while (written < part.length) written += fs.writeSync(fd, part, written, part.length - written, start + s.offset + at + written);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return { start, sections };
}

/**
 * The array `name` of `file` (laid out as `layout` says) mapped in place, privately (writes copy their page, the file
 * never changes), with zeroed room after it up to `capacity` elements; undefined when it was not written page-aligned,
 * is absent or larger than `capacity`, or cannot be mapped (the caller reads it instead).
 */
export function mapArray(file: string, layout: ArrayFileLayout, name: string, capacity: number, mapFile: MapFile): NumericArray | undefined {
  const s = layout.sections.find((section) => section.name === name);
  if (!s) return undefined;
  const position = layout.start + s.offset;
  if (position % PAGE_ALIGN !== 0 || capacity < s.length) return undefined;
  try {
    return view(s.kind, mapFile(file, position, s.length * bytesPer(s.kind), Math.max(1, capacity) * bytesPer(s.kind)), capacity);
  } catch {
    return undefined;
  }
}

/** An array file opened for reading: its JSON value, and its arrays read on demand. */
export interface ArrayFileReader {
  readonly meta: unknown;
  has(name: string): boolean;
  /** The array's element count. */
  length(name: string): number;
  /** The array, in a new array of its length. */
  read(name: string): Promise<NumericArray>;
  /** The array, read into the start of `target` (same type, at least its length). */
  readInto(name: string, target: NumericArray): Promise<void>;
  /**
   * The array mapped in place (privately: writes copy their page, the file never changes), with zeroed room after it
   * up to `capacity` elements; undefined when it was not written page-aligned or cannot be mapped (read it instead).
   * Its bytes still count in `sha256` (read from the file when the hash reaches them).
   */
  map(name: string, capacity: number, mapFile: MapFile): NumericArray | undefined;
  /** `map` when `mapFile` is given and the array can be mapped, else read into a new array of `capacity` (at least its length). */
  load(name: string, capacity?: number, mapFile?: MapFile): Promise<NumericArray>;
  /**
   * The whole file's SHA-256. The bytes read so far count when the arrays were read in the file's order (a reader
   * that reads every array in order checks the file in the same pass); otherwise the file is read again.
   */
  sha256(): Promise<string>;
  close(): Promise<void>;
}

export class ArrayFileError extends Error {}

/** Opens `file`; throws ArrayFileError when it is not an array file of this byte order. */
export async function openArrayFile(file: string): Promise<ArrayFileReader> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(8);
    await readFully(handle, head, 0);
    if (head.readUInt32LE(0) !== MAGIC) throw new ArrayFileError('not an array file');
    const json = Buffer.alloc(head.readUInt32LE(4));
    await readFully(handle, json, 8);
    const header = JSON.parse(json.toString('utf8')) as Header;
    if (header.littleEndian !== LITTLE_ENDIAN) throw new ArrayFileError('written with another byte order');
    const start = alignTo(8 + json.length, header.dataAlign ?? 8);
    const size = (await handle.stat()).size;
    const byName = new Map(header.sections.map((s) => [s.name, s]));
    for (const s of header.sections) if (start + s.offset + s.length * bytesPer(s.kind) > size) throw new ArrayFileError('truncated');
    const section = (name: string) => {
      const s = byName.get(name);
      if (!s) throw new ArrayFileError(`no array ${name}`);
      return s;
    };
    // The running checksum: every byte before `hashedTo` went into `hash`, in order, while `inOrder` holds.
    let hash = createHash('sha256');
    let hashedTo = 0;
    let inOrder = true;
    const hashUpTo = async (position: number) => {
      for (const chunk = Buffer.alloc(Math.min(CHUNK, Math.max(0, position - hashedTo))); hashedTo < position; ) {
        const part = chunk.subarray(0, Math.min(chunk.length, position - hashedTo));
        await readFully(handle, part, hashedTo);
        hash.update(part);
        hashedTo += part.length;
      }
    };
    const readInto = async (name: string, target: NumericArray) => {
      const s = section(name);
      if (kindOf(target) !== s.kind || target.length < s.length) throw new ArrayFileError(`array ${name} does not fit its target`);
      const position = start + s.offset;
      if (position < hashedTo) inOrder = false;
      if (inOrder) await hashUpTo(position);
      const into = bytesOf(target).subarray(0, s.length * bytesPer(s.kind));
      await readFully(handle, into, position, inOrder ? (bytes) => hash.update(bytes) : undefined);
      if (inOrder) hashedTo = position + into.length;
    };
    const layout: ArrayFileLayout = { start, sections: header.sections };
    const map = (name: string, capacity: number, mapFile: MapFile): NumericArray | undefined => {
      section(name);
      return mapArray(file, layout, name, capacity, mapFile);
    };
    return {
      meta: header.meta,
      has: (name) => byName.has(name),
      length: (name) => section(name).length,
      readInto,
      map,
      async load(name, capacity, mapFile) {
        const s = section(name);
        const room = Math.max(capacity ?? 0, s.length);
        const mapped = mapFile ? map(name, room, mapFile) : undefined;
        if (mapped) return mapped;
        const out = allocate(s.kind, room);
        await readInto(name, out);
        return out;
      },
      async read(name) {
        const s = section(name);
        const out = allocate(s.kind, s.length);
        await readInto(name, out);
        return out;
      },
      async sha256() {
        if (!inOrder) {
          hash = createHash('sha256');
          hashedTo = 0;
          inOrder = true;
        }
        await hashUpTo(size);
        return hash.digest('hex');
      },
      close: () => handle.close(),
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

function bytesPer(kind: Kind): number {
  return kind === 'u8' ? 1 : kind === 'u16' ? 2 : kind === 'f64' ? 8 : 4;
}

/** Reads `into.length` bytes from `position`, in chunks; `onChunk` sees each chunk as it arrives. */
async function readFully(handle: fs.promises.FileHandle, into: Uint8Array, position: number, onChunk?: (bytes: Uint8Array) => void): Promise<void> {
  for (let at = 0; at < into.length; ) {
    const { bytesRead } = await handle.read(into, at, Math.min(CHUNK, into.length - at), position + at);
    if (bytesRead === 0) throw new ArrayFileError('truncated');
    onChunk?.(into.subarray(at, at + bytesRead));
    at += bytesRead;
  }
}
