/**
 * The upload side of a backup that spans invocations. R2 wants every part of a multipart upload
 * but the last at least 5 MiB and all the same size, and an invocation rarely ends on a part's
 * edge: what is left over (less than one part) is kept as a small R2 object, the tail, and put in
 * front of the next invocation's output.
 */
export const tailKey = (runId: string) => `backup-runs/${runId}.tail`;

export const partUploader = (upload: R2MultipartUpload, partBytes: number, uploaded: R2UploadedPart[], tail: Uint8Array) => {
  const chunks: Uint8Array[] = tail.byteLength ? [tail] : [];
  const parts = [...uploaded];
  let buffered = tail.byteLength;

  const take = (size: number) => {
    const part = new Uint8Array(size);
    for (let filled = 0; filled < size; ) {
      const head = chunks[0] as Uint8Array;
      const used = Math.min(head.byteLength, size - filled);
      part.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.byteLength) chunks.shift();
      else chunks[0] = head.subarray(used);
    }
    buffered -= size;
    return part;
  };
  const send = async (bytes: Uint8Array) => {
    parts.push(await upload.uploadPart(parts.length + 1, bytes));
  };

  return {
    add: async (chunk: Uint8Array) => {
      chunks.push(chunk);
      buffered += chunk.byteLength;
      while (buffered >= partBytes) await send(take(partBytes));
    },
    /** The parts so far and the bytes too few for another, for the next invocation. */
    pause: () => ({ parts, tail: take(buffered) }),
    complete: async () => {
      if (buffered > 0 || parts.length === 0) await send(take(buffered));
      return upload.complete(parts);
    },
  };
};

export type PartUploader = ReturnType<typeof partUploader>;
