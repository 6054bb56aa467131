/**
 * Decoding `session.jsonl.zstd`, which DSH writes as a concatenation of zstd
 * frames (one per flush). The frames are walked first, from their headers, so a
 * truncated or corrupt file is named precisely before anything is decoded; the
 * `zstd` command then decodes the lot. Node >= 22.15 can decode without it, but
 * its one-shot decoder stops after the first frame, hence frame by frame.
 */
import { spawnSync } from 'node:child_process';
import * as zlib from 'node:zlib';

/** Why a file could not be decoded, as one sentence a user can act on. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

export const MISSING_ZSTD =
  'no `zstd` command on PATH and this Node has no built-in zstd (Node >= 22.15): install the Debian package `zstd` (apt install zstd)';

const FRAME_MAGIC = 0xfd2fb528;
/** Skippable frames use the 16 magic numbers 0x184D2A50..0x184D2A5F. */
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

export interface Frame {
  readonly start: number;
  readonly end: number;
  readonly skippable: boolean;
}

/** Whether the bytes start like a zstd stream (either frame kind). */
export function looksLikeZstd(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const magic = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  return magic === FRAME_MAGIC || (magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC;
}

/**
 * The frames of a zstd stream, found from their headers and block headers alone
 * (RFC 8878 §3.1). Throws a {@link DecodeError} naming the frame and offset when
 * the stream ends inside a frame or a frame does not start with a magic number.
 */
export function splitFrames(bytes: Uint8Array): Frame[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: Frame[] = [];
  let at = 0;
  const need = (until: number, what: string): void => {
    if (until > bytes.length) {
      throw new DecodeError(
        `truncated zstd frame ${frames.length + 1} (it starts at byte ${frames.at(-1)?.end ?? 0}; the file ends inside its ${what})`,
      );
    }
  };
  while (at < bytes.length) {
    const start = at;
    need(at + 4, 'magic number');
    const magic = view.getUint32(at, true);
    at += 4;
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(at + 4, 'skippable frame size');
      at += 4 + view.getUint32(at, true);
      need(at, 'skippable frame data');
      frames.push({ start, end: at, skippable: true });
      continue;
    }
    if (magic !== FRAME_MAGIC) {
      throw new DecodeError(`not a zstd frame at byte ${start} (frame ${frames.length + 1}): the file is corrupt or not zstd`);
    }
    need(at + 1, 'frame header');
    const descriptor = bytes[at] ?? 0;
    at += 1;
    const singleSegment = (descriptor & 0x20) !== 0;
    const checksum = (descriptor & 0x04) !== 0;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 0x03] ?? 0;
    const sizeFlag = descriptor >> 6;
    const contentSizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : ([0, 2, 4, 8][sizeFlag] ?? 0);
    at += (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
    need(at, 'frame header');
    for (let last = false; !last; ) {
      need(at + 3, 'block header');
      const header = (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
      at += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 0x03;
      if (type === 3) throw new DecodeError(`corrupt zstd frame ${frames.length + 1}: reserved block type at byte ${at - 3}`);
      // An RLE block stores one byte, repeated Block_Size times on decode.
      at += type === 1 ? 1 : header >>> 3;
      need(at, 'block data');
    }
    if (checksum) {
      at += 4;
      need(at, 'checksum');
    }
    frames.push({ start, end: at, skippable: false });
  }
  return frames;
}

type FrameDecoder = (frame: Uint8Array) => Buffer;

function nodeDecoder(): FrameDecoder | undefined {
  const decode = (zlib as { zstdDecompressSync?: FrameDecoder }).zstdDecompressSync;
  return typeof decode === 'function' ? decode : undefined;
}

export interface DecodeOptions {
  /** The command to run; tests point this at a missing one. Default `zstd`. */
  readonly command?: string;
  /** Whether Node's built-in decoder may stand in for a missing command. Default true. */
  readonly nodeFallback?: boolean;
}

/** Decodes every frame of a zstd stream to UTF-8 text. Throws {@link DecodeError}. */
export function decodeZstd(bytes: Uint8Array, options: DecodeOptions = {}): string {
  const frames = splitFrames(bytes);
  const run = spawnSync(options.command ?? 'zstd', ['-dcq'], { input: bytes, maxBuffer: 1 << 30 });
  if (run.error === undefined) {
    if (run.status === 0) return run.stdout.toString('utf8');
    throw new DecodeError(
      `zstd could not decode it: ${run.stderr.toString('utf8').trim().split('\n').pop() ?? `exit ${String(run.status)}`}`,
    );
  }
  if ((run.error as NodeJS.ErrnoException).code !== 'ENOENT') throw new DecodeError(`could not run zstd: ${run.error.message}`);
  const decode = options.nodeFallback === false ? undefined : nodeDecoder();
  if (decode === undefined) throw new DecodeError(MISSING_ZSTD);
  // Bytes first: a character may straddle two frames.
  const parts: Buffer[] = [];
  for (const [index, frame] of frames.entries()) {
    if (frame.skippable) continue;
    try {
      parts.push(decode(bytes.subarray(frame.start, frame.end)));
    } catch (error) {
      throw new DecodeError(`corrupt zstd frame ${index + 1} at byte ${frame.start}: ${(error as Error).message}`);
    }
  }
  return Buffer.concat(parts).toString('utf8');
}
