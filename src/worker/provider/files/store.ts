import { SNIFF_BYTES } from './sniff';

/**
 * Writes a file to R2 as it arrives, in bounded memory. R2 takes a stream only when its length
 * is known, and an upload's is not until its end, so the bytes go in parts of PART_BYTES (R2's
 * smallest part but the last): at most one part is held at a time. A file smaller than one part
 * is a single put. The SHA-256 is computed on the way through.
 */

export const PART_BYTES = 5 * 1024 * 1024;

/** The file passed `maxBytes`; nothing of it is left in the bucket. */
export class TooLarge extends Error {}

export interface Stored {
  bytes: number;
  sha256: string;
  /** The file's first bytes, for deciding its type. */
  head: Uint8Array;
}

const hex = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');

export const storeStream = async (bucket: R2Bucket, key: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Stored> => {
  const digest = new crypto.DigestStream('SHA-256');
  const hashing = digest.getWriter();
  // Settled even when the upload is refused and the hash abandoned.
  const sha256 = digest.digest.then(hex, () => '');
  const part = new Uint8Array(PART_BYTES);
  let filled = 0;
  let bytes = 0;
  let head: Uint8Array | null = null;
  let upload: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];

  const flush = async () => {
    upload ??= await bucket.createMultipartUpload(key);
    parts.push(await upload.uploadPart(parts.length + 1, part.subarray(0, filled)));
    filled = 0;
  };

  try {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw new TooLarge();
      await hashing.write(chunk);
      for (let from = 0; from < chunk.length; ) {
        const taken = Math.min(chunk.length - from, PART_BYTES - filled);
        part.set(chunk.subarray(from, from + taken), filled);
        filled += taken;
        from += taken;
        head ??= filled >= SNIFF_BYTES ? part.slice(0, SNIFF_BYTES) : null;
        if (filled === PART_BYTES) await flush();
      }
    }
    head ??= part.slice(0, Math.min(filled, SNIFF_BYTES));
    if (upload) {
      if (filled) await flush();
      await (upload as R2MultipartUpload).complete(parts);
    } else {
      await bucket.put(key, part.subarray(0, filled));
    }
    await hashing.close();
    return { bytes, sha256: await sha256, head };
  } catch (error) {
    await (upload as R2MultipartUpload | null)?.abort().catch(() => undefined);
    await hashing.abort().catch(() => undefined);
    throw error;
  }
};
