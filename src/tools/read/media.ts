/**
 * Images and PDFs are described, not dumped: format and size always, image dimensions from the
 * header, PDF version and page count from a scan of the file's objects.
 */
import { open, readFile } from "node:fs/promises";

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

export interface ImageInfo {
  format: ImageFormat;
  width?: number;
  height?: number;
}

export interface PdfInfo {
  version?: string;
  pages?: number;
}

const IMAGE_EXTENSIONS: Record<string, ImageFormat> = {
  ".png": "png",
  ".jpg": "jpeg",
  ".jpeg": "jpeg",
  ".gif": "gif",
  ".webp": "webp",
};

const HEADER_BYTES = 64 * 1024;
/** PDFs larger than this are described without a page count. */
const MAX_PDF_SCAN_BYTES = 64 * 1024 * 1024;

export function imageFormatOf(extension: string): ImageFormat | undefined {
  return IMAGE_EXTENSIONS[extension.toLowerCase()];
}

export async function readHead(path: string, bytes = HEADER_BYTES): Promise<Uint8Array> {
  const file = await open(path, "r");
  try {
    const buffer = new Uint8Array(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

export function isPdf(head: Uint8Array): boolean {
  return ascii(head, 0, 5) === "%PDF-";
}

/** Dimensions from the header; undefined fields when the header is not what the format promises. */
export function imageInfo(format: ImageFormat, head: Uint8Array): ImageInfo {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const size = (() => {
    try {
      return DIMENSIONS[format](head, view);
    } catch {
      return undefined; // a truncated header: no dimensions rather than a failure
    }
  })();
  return size ? { format, width: size[0], height: size[1] } : { format };
}

type Size = [number, number] | undefined;

const DIMENSIONS: Record<ImageFormat, (head: Uint8Array, view: DataView) => Size> = {
  png: (head, view) => ascii(head, 12, 16) === "IHDR" ? [view.getUint32(16), view.getUint32(20)] : undefined,
  gif: (head, view) =>
    ascii(head, 0, 4) === "GIF8" ? [view.getUint16(6, true), view.getUint16(8, true)] : undefined,
  webp: (head, view) => {
    if (ascii(head, 0, 4) !== "RIFF" || ascii(head, 8, 12) !== "WEBP") return undefined;
    const chunk = ascii(head, 12, 16);
    if (chunk === "VP8 ") return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
    if (chunk === "VP8L") {
      const bits = view.getUint32(21, true);
      return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1];
    }
    if (chunk === "VP8X") return [uint24(head, 24) + 1, uint24(head, 27) + 1];
    return undefined;
  },
  jpeg: (head, view) => {
    if (head[0] !== 0xff || head[1] !== 0xd8) return undefined;
    let at = 2;
    while (at + 9 < head.length) {
      if (head[at] !== 0xff) return undefined;
      const marker = head[at + 1]!;
      // Start-of-frame markers C0–CF carry the size, except C4 (DHT), C8 (JPG) and CC (DAC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return [view.getUint16(at + 7), view.getUint16(at + 5)];
      }
      at += 2 + view.getUint16(at + 2);
    }
    return undefined;
  },
};

export async function pdfInfo(path: string, size: number): Promise<PdfInfo> {
  const head = await readHead(path, 32);
  const version = /^%PDF-(\d\.\d)/.exec(ascii(head, 0, head.length))?.[1];
  if (size > MAX_PDF_SCAN_BYTES) return { version };
  const text = new TextDecoder("latin1").decode(await readFile(path));
  const pageObjects = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  if (pageObjects > 0) return { version, pages: pageObjects };
  // Page objects inside compressed object streams are invisible; the page tree root's /Count is not.
  const counts = [...text.matchAll(/\/Count\s+(\d+)/g)].map((m) => Number(m[1]));
  return counts.length ? { version, pages: Math.max(...counts) } : { version };
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

function uint24(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}
