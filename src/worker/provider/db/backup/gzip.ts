/**
 * A backup written over several invocations is a series of gzip members, one per page of rows:
 * RFC 1952 makes members one after another one gzip stream (gunzip, zlib and Node read it whole),
 * and no compressor's state has to outlive an invocation. workerd's DecompressionStream stops at
 * the end of the first member, so each member's header names its own length in an extra field
 * (subfield "SA", 4 bytes, little-endian, the whole member), as BGZF does, and a reader can take
 * the members apart and inflate them one by one.
 */
const ID1 = 0x1f;
const ID2 = 0x8b;
const FEXTRA = 0x04;
const PLAIN_HEADER = 10;
export const SIZED_HEADER = PLAIN_HEADER + 2 + 4 + 4;

const gzip = async (bytes: Uint8Array) => new Uint8Array(await new Response(new Response(bytes).body?.pipeThrough(new CompressionStream('gzip'))).arrayBuffer());

/** `bytes` as one gzip member whose header holds the member's length. */
export const gzipMember = async (bytes: Uint8Array) => {
  const plain = await gzip(bytes);
  if (plain[3] !== 0) throw new Error('CompressionStream wrote a gzip header with flags');
  const member = new Uint8Array(plain.byteLength + SIZED_HEADER - PLAIN_HEADER);
  member.set(plain.subarray(0, PLAIN_HEADER));
  member[3] = FEXTRA;
  const view = new DataView(member.buffer);
  view.setUint16(10, 8, true);
  member.set([0x53, 0x41], 12);
  view.setUint16(14, 4, true);
  view.setUint32(16, member.byteLength, true);
  member.set(plain.subarray(PLAIN_HEADER), SIZED_HEADER);
  return member;
};

/** The length a member's header names, or null for a member without one (a file written in one go). */
const sizeOf = (head: Uint8Array) => {
  if (head[0] !== ID1 || head[1] !== ID2 || head[3] !== FEXTRA || head[12] !== 0x53 || head[13] !== 0x41) return null;
  return new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(16, true);
};

/**
 * Inflates `source`, fed by hand rather than piped: a damaged stream errors both sides and the
 * reader reports it, while workerd reports a failing pipe's close as an unhandled rejection.
 */
async function* inflate(source: ReadableStream<Uint8Array>) {
  const gunzip = new DecompressionStream('gzip');
  const feed = async () => {
    const input = source.getReader();
    const sink = gunzip.writable.getWriter();
    for (let next = await input.read(); !next.done; next = await input.read()) await sink.write(next.value);
    await sink.close();
  };
  feed().catch(() => undefined);
  const out = gunzip.readable.getReader();
  try {
    for (let next = await out.read(); !next.done; next = await out.read()) yield next.value;
  } finally {
    // Stops the feed when the reader ends early.
    await out.cancel().catch(() => undefined);
  }
}

/**
 * The decompressed bytes of a gzip stream: sized members one by one, anything else (a backup
 * written in one stream, or damaged bytes) through one DecompressionStream, whose errors pass on.
 */
export async function* gunzipStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let buffered = new Uint8Array(0);
  let ended = false;
  const fill = async (bytes: number) => {
    while (!ended && buffered.byteLength < bytes) {
      const next = await reader.read();
      if (next.done) ended = true;
      else {
        const joined = new Uint8Array(buffered.byteLength + next.value.byteLength);
        joined.set(buffered);
        joined.set(next.value, buffered.byteLength);
        buffered = joined;
      }
    }
    return buffered.byteLength >= bytes;
  };
  while (await fill(1)) {
    const size = (await fill(SIZED_HEADER)) ? sizeOf(buffered) : null;
    if (size === null || size < SIZED_HEADER) {
      // Not a sized member: the rest of the stream is read as one.
      const head = buffered;
      const rest = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(head),
        pull: async (controller) => {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      yield* inflate(rest);
      return;
    }
    // A cut member is passed on as it is, for the DecompressionStream to report.
    await fill(size);
    const member = buffered.subarray(0, Math.min(size, buffered.byteLength));
    buffered = buffered.slice(member.byteLength);
    yield* inflate(new Response(member).body as ReadableStream<Uint8Array>);
  }
}
