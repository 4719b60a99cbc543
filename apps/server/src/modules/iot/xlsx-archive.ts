import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Storage } from '../../platform/storage.js';

/**
 * exceljs's streaming reader meets the parts of an .xlsx in archive order. Excel, openpyxl and
 * LibreOffice store the worksheets before the shared strings and the styles; exceljs then parks
 * the sheets in temporary files and, depending on how the bytes arrive, loses parts on the way
 * (exceljs#683, #3064): cells answer `{sharedString: n}` instead of their text, dates their serial
 * number, whole sheets go missing. A sheet met before styles.xml never learns its date formats.
 *
 * So the archive is read through its central directory (the file is local) and handed to exceljs
 * rebuilt in the order a streaming reader needs: the workbook and its relations (written here,
 * naming the worksheets `sheet1…n`), styles, shared strings, then the worksheets, first the
 * visible ones in tab order, then the hidden ones. The big parts are copied compressed, byte for
 * byte; only the workbook and its relations are read here.
 */

/** Parts read whole here (relations, workbook): anything larger is not a workbook. */
const SMALL_PART_MAX = 8 * 1024 * 1024;

const SIG = { local: 0x04034b50, central: 0x02014b50, end: 0x06054b50, end64: 0x06064b50, locator64: 0x07064b50 };

/** The file is not a readable workbook archive (the job answers `file_corrupt`). */
export class XlsxArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XlsxArchiveError';
  }
}

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
}

export interface WorkbookArchive {
  /** Worksheets, in the order the rebuilt archive holds them (the first is the one imported). */
  sheets: { name: string; hidden: boolean }[];
  /** The workbook counts dates from 1904 (old Mac Excel). */
  date1904: boolean;
  /** Bytes of the rebuilt archive (progress of a streaming parse). */
  size: number;
  /** The rebuilt archive, streamed (once). */
  stream(): Readable;
  close(): Promise<void>;
}

const readAt = async (fh: FileHandle, position: number, length: number): Promise<Buffer> => {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead < length) throw new XlsxArchiveError('truncated archive');
  return buf;
};

/** The central directory (zip64 included: some writers always use it). */
const readDirectory = async (fh: FileHandle, fileSize: number): Promise<ZipEntry[]> => {
  if (fileSize < 22) throw new XlsxArchiveError('not a zip archive');
  const tailLength = Math.min(fileSize, 22 + 0xffff);
  const tail = await readAt(fh, fileSize - tailLength, tailLength);
  let at = tail.length - 22;
  while (at >= 0 && tail.readUInt32LE(at) !== SIG.end) at--;
  if (at < 0) throw new XlsxArchiveError('no end of central directory');
  let count = tail.readUInt16LE(at + 10);
  let dirSize = tail.readUInt32LE(at + 12);
  let dirOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    const locator = at - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== SIG.locator64) throw new XlsxArchiveError('zip64 locator missing');
    const record = await readAt(fh, Number(tail.readBigUInt64LE(locator + 8)), 56);
    if (record.readUInt32LE(0) !== SIG.end64) throw new XlsxArchiveError('zip64 end record missing');
    count = Number(record.readBigUInt64LE(32));
    dirSize = Number(record.readBigUInt64LE(40));
    dirOffset = Number(record.readBigUInt64LE(48));
  }
  if (dirOffset + dirSize > fileSize) throw new XlsxArchiveError('central directory out of range');
  const dir = await readAt(fh, dirOffset, dirSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== SIG.central) throw new XlsxArchiveError('bad central directory');
    const flags = dir.readUInt16LE(p + 8);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const entry: ZipEntry = {
      name: dir.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength),
      method: dir.readUInt16LE(p + 10),
      flags,
      crc: dir.readUInt32LE(p + 16),
      compressedSize: dir.readUInt32LE(p + 20),
      size: dir.readUInt32LE(p + 24),
      headerOffset: dir.readUInt32LE(p + 42),
    };
    // zip64 extra field: the 64-bit values of the saturated fields, in this order.
    for (let x = p + 46 + nameLength, end = x + extraLength; x + 4 <= end; x += 4 + dir.readUInt16LE(x + 2)) {
      if (dir.readUInt16LE(x) !== 0x0001) continue;
      let q = x + 4;
      const next = () => {
        const v = Number(dir.readBigUInt64LE(q));
        q += 8;
        return v;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.headerOffset === 0xffffffff) entry.headerOffset = next();
    }
    entries.push(entry);
    p += 46 + nameLength + extraLength + dir.readUInt16LE(p + 32);
  }
  return entries;
};

/** Where an entry's compressed bytes start (after its local header). */
const dataOffsetOf = async (fh: FileHandle, entry: ZipEntry, fileSize: number): Promise<number> => {
  const header = await readAt(fh, entry.headerOffset, 30);
  if (header.readUInt32LE(0) !== SIG.local) throw new XlsxArchiveError(`bad local header: ${entry.name}`);
  const start = entry.headerOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressedSize > fileSize) throw new XlsxArchiveError(`entry out of range: ${entry.name}`);
  if (entry.flags & 0x1) throw new XlsxArchiveError(`encrypted entry: ${entry.name}`);
  if (entry.method !== 0 && entry.method !== 8) throw new XlsxArchiveError(`unsupported compression: ${entry.name}`);
  if (entry.compressedSize >= 0xffffffff || entry.size >= 0xffffffff) throw new XlsxArchiveError(`entry too large: ${entry.name}`);
  return start;
};

const readSmallPart = async (fh: FileHandle, entry: ZipEntry, fileSize: number): Promise<string> => {
  if (entry.size > SMALL_PART_MAX) throw new XlsxArchiveError(`part too large: ${entry.name}`);
  const raw = await readAt(fh, await dataOffsetOf(fh, entry, fileSize), entry.compressedSize);
  try {
    return (entry.method === 8 ? zlib.inflateRawSync(raw, { maxOutputLength: SMALL_PART_MAX }) : raw).toString('utf8');
  } catch {
    throw new XlsxArchiveError(`unreadable part: ${entry.name}`);
  }
};

const decodeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e[0] !== '#') return named[e.toLowerCase()] ?? '';
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The attributes of every `<tag …>` (any namespace prefix), by local name. */
const elements = (xml: string, tag: string): Record<string, string>[] =>
  Array.from(xml.matchAll(new RegExp(`<(?:[\\w.-]+:)?${tag}\\b([^>]*)>`, 'g')), (m) => {
    const attrs: Record<string, string> = {};
    for (const a of (m[1] ?? '').matchAll(/(?:[\w.-]+:)?([\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      attrs[a[1] as string] = decodeXml(a[2] ?? a[3] ?? '');
    }
    return attrs;
  });

/** A relationship target, resolved from the folder of the part that names it. */
const resolveTarget = (fromFolder: string, target: string) =>
  target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(fromFolder, target));

const relationsOf = (xml: string) =>
  elements(xml, 'Relationship').map((r) => ({ id: r.Id ?? '', type: (r.Type ?? '').split('/').pop() ?? '', target: r.Target ?? '' }));

const localHeader = (name: Buffer, e: Pick<ZipEntry, 'method' | 'crc' | 'compressedSize' | 'size'>) => {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(SIG.local, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(e.method, 8);
  h.writeUInt16LE(0x21, 12); // 1980-01-01
  h.writeUInt32LE(e.crc, 14);
  h.writeUInt32LE(e.compressedSize, 18);
  h.writeUInt32LE(e.size, 22);
  h.writeUInt16LE(name.length, 26);
  return h;
};

const centralHeader = (name: Buffer, e: Pick<ZipEntry, 'method' | 'crc' | 'compressedSize' | 'size'>, offset: number) => {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(SIG.central, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(e.method, 10);
  h.writeUInt16LE(0x21, 14);
  h.writeUInt32LE(e.crc, 16);
  h.writeUInt32LE(e.compressedSize, 20);
  h.writeUInt32LE(e.size, 24);
  h.writeUInt16LE(name.length, 28);
  h.writeUInt32LE(offset, 42);
  return h;
};

type OutPart = { name: string } & ({ data: Buffer } | { entry: ZipEntry; start: number });

/**
 * Opens a local .xlsx for a streaming read (see above). Throws `XlsxArchiveError` when the file is
 * not a workbook archive, and the file system's error when the file cannot be opened.
 */
export const openWorkbookArchive = async (file: string): Promise<WorkbookArchive> => {
  const fh = await fs.open(file, 'r');
  try {
    const fileSize = (await fh.stat()).size;
    const byName = new Map<string, ZipEntry>();
    // Part names are case-insensitive (OPC).
    for (const e of await readDirectory(fh, fileSize)) byName.set(e.name.replace(/^\//, '').toLowerCase(), e);
    const find = (name: string) => byName.get(name.toLowerCase());
    const text = async (name: string) => {
      const entry = find(name);
      return entry ? readSmallPart(fh, entry, fileSize) : null;
    };

    const rootRels = await text('_rels/.rels');
    const officeDocument = rootRels ? relationsOf(rootRels).find((r) => r.type === 'officeDocument') : undefined;
    const workbookPath = officeDocument ? resolveTarget('', officeDocument.target) : 'xl/workbook.xml';
    const workbookXml = await text(workbookPath);
    if (workbookXml === null) throw new XlsxArchiveError('no workbook part');
    const folder = path.posix.dirname(workbookPath);
    const relsXml = await text(`${folder}/_rels/${path.posix.basename(workbookPath)}.rels`);
    const rels = relsXml ? relationsOf(relsXml) : [];
    const partOf = (type: string) => {
      const rel = rels.find((r) => r.type === type);
      return rel ? find(resolveTarget(folder, rel.target)) : undefined;
    };

    const date1904 = elements(workbookXml, 'workbookPr').some((p) => p.date1904 === '1' || p.date1904 === 'true');
    // Worksheets only (no chart or dialog sheets), visible ones first, each in tab order.
    const sheets = elements(workbookXml, 'sheet')
      .map((s) => {
        const rel = rels.find((r) => r.id === s.id && r.type === 'worksheet');
        const entry = rel ? find(resolveTarget(folder, rel.target)) : undefined;
        return { name: s.name ?? '', hidden: s.state === 'hidden' || s.state === 'veryHidden', entry };
      })
      .filter((s): s is { name: string; hidden: boolean; entry: ZipEntry } => s.entry !== undefined)
      .sort((a, b) => Number(a.hidden) - Number(b.hidden));

    const copy = async (name: string, entry: ZipEntry): Promise<OutPart> => ({
      name,
      entry,
      start: await dataOffsetOf(fh, entry, fileSize),
    });
    const stored = (name: string, xml: string): OutPart => ({ name, data: Buffer.from(xml, 'utf8') });
    const ns =
      'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const relType = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';
    const parts: OutPart[] = [
      stored(
        'xl/_rels/workbook.xml.rels',
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
          .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${relType}" Target="worksheets/sheet${i + 1}.xml"/>`)
          .join('')}</Relationships>`,
      ),
      stored(
        'xl/workbook.xml',
        `<?xml version="1.0" encoding="UTF-8"?><workbook ${ns}><workbookPr${date1904 ? ' date1904="1"' : ''}/><sheets>${sheets
          .map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
          .join('')}</sheets></workbook>`,
      ),
    ];
    const styles = partOf('styles');
    if (styles) parts.push(await copy('xl/styles.xml', styles));
    // Always a shared strings part: without one exceljs parks every sheet (see above).
    const strings = partOf('sharedStrings');
    parts.push(strings ? await copy('xl/sharedStrings.xml', strings) : stored('xl/sharedStrings.xml', `<sst ${ns}/>`));
    for (const [i, s] of sheets.entries()) parts.push(await copy(`xl/worksheets/sheet${i + 1}.xml`, s.entry));

    const described = parts.map((p) => {
      const name = Buffer.from(p.name, 'utf8');
      const e =
        'data' in p
          ? { method: 0, crc: zlib.crc32(p.data), compressedSize: p.data.length, size: p.data.length }
          : { method: p.entry.method, crc: p.entry.crc, compressedSize: p.entry.compressedSize, size: p.entry.size };
      return { part: p, name, e };
    });
    let offset = 0;
    const offsets = described.map((d) => {
      const at = offset;
      offset += 30 + d.name.length + d.e.compressedSize;
      return at;
    });
    const directory = Buffer.concat(described.map((d, i) => Buffer.concat([centralHeader(d.name, d.e, offsets[i] as number), d.name])));
    const end = Buffer.alloc(22);
    end.writeUInt32LE(SIG.end, 0);
    end.writeUInt16LE(described.length, 8);
    end.writeUInt16LE(described.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);

    return {
      sheets: sheets.map(({ name, hidden }) => ({ name, hidden })),
      date1904,
      size: offset + directory.length + end.length,
      stream: () =>
        Readable.from(
          (async function* () {
            for (const d of described) {
              yield Buffer.concat([localHeader(d.name, d.e), d.name]);
              const p = d.part;
              if ('data' in p) yield p.data;
              else if (p.entry.compressedSize > 0) {
                yield* fh.createReadStream({ start: p.start, end: p.start + p.entry.compressedSize - 1, autoClose: false });
              }
            }
            yield directory;
            yield end;
          })(),
          { objectMode: false },
        ),
      close: () => fh.close(),
    };
  } catch (err) {
    await fh.close();
    throw err;
  }
};

/**
 * A stored upload opened as above: the store's local file, or for a remote store a temporary
 * local copy (removed on close). Null when the file is gone.
 */
export const openStoredWorkbook = async (storage: Storage, key: string): Promise<WorkbookArchive | null> => {
  const local = storage.localPath(key);
  if (local) {
    try {
      return await openWorkbookArchive(local);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
  const input = await storage.open(key);
  if (!input) return null;
  const tmp = path.join(os.tmpdir(), `iot-import-${process.pid}-${crypto.randomBytes(8).toString('hex')}.xlsx`);
  try {
    await pipeline(input, createWriteStream(tmp));
    const archive = await openWorkbookArchive(tmp);
    return {
      ...archive,
      close: async () => {
        await archive.close();
        await fs.rm(tmp, { force: true });
      },
    };
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
};
