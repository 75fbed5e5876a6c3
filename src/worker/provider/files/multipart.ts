import { Invalid } from '../errors/domain';

/**
 * A multipart/form-data body read part by part as it arrives, so a file part can be passed on
 * (to R2) without ever holding the whole body: only the bytes that might still be the start of
 * the next boundary are kept between chunks.
 */

const encoder = new TextEncoder();
const HEADER_END = encoder.encode('\r\n\r\n');
// A part's headers are a line or two; more is not a browser's form.
const MAX_HEADER_BYTES = 8 * 1024;

const malformed = () => new Invalid('The upload is not a well-formed multipart/form-data body', { file: ['The upload was cut short or malformed'] });

/** The boundary of a `multipart/form-data; boundary=…` type, or null for any other type. */
export const boundaryOf = (contentType: string | undefined) => {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
};

const indexOf = (haystack: Uint8Array, needle: Uint8Array, from = 0) => {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = haystack.indexOf(first as number, from); i !== -1 && i <= last; i = haystack.indexOf(first as number, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
};

const joined = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

export interface PartHead {
  name: string;
  /** Set for a file field, as the browser sent it (maybe empty). */
  filename: string | null;
}

const parameter = (disposition: string, key: string) => {
  const match = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition) ?? new RegExp(`;\\s*${key}=([^;\\s]+)`, 'i').exec(disposition);
  return match?.[1] === undefined ? null : match[1].replace(/\\(.)/g, '$1');
};

const headOf = (text: string): PartHead => {
  const disposition = /^content-disposition:\s*(.*)$/im.exec(text)?.[1] ?? '';
  if (!/^form-data\b/i.test(disposition)) throw malformed();
  const name = parameter(disposition, 'name');
  if (name === null) throw malformed();
  // Browsers write `"`, CR and LF in a file name as %22, %0D and %0A (the HTML form encoding).
  const filename = parameter(disposition, 'filename')?.replace(/%(22|0d|0a)/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16))) ?? null;
  return { name, filename };
};

export class MultipartReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly delimiter: Uint8Array;
  private buffer: Uint8Array = new Uint8Array(0);
  private ended = false;
  private started = false;
  private finished = false;

  constructor(body: ReadableStream<Uint8Array>, boundary: string) {
    this.reader = body.getReader();
    this.delimiter = encoder.encode(`\r\n--${boundary}`);
  }

  /** Reads one more chunk onto the buffer; false when the body has ended. */
  private async fill() {
    if (this.ended) return false;
    // A body that breaks off (its sender went away, or the Worker gave up on it) is cut short.
    const { done, value } = await this.reader.read().catch(() => {
      throw malformed();
    });
    if (done) {
      this.ended = true;
      return false;
    }
    this.buffer = joined(this.buffer, value);
    return true;
  }

  private async need(bytes: number) {
    while (this.buffer.length < bytes) if (!(await this.fill())) throw malformed();
  }

  /** Where `mark` starts in the buffer, reading on for it through at most MAX_HEADER_BYTES. */
  private async find(mark: Uint8Array) {
    for (;;) {
      const at = indexOf(this.buffer, mark);
      if (at !== -1) return at;
      if (this.buffer.length > MAX_HEADER_BYTES || !(await this.fill())) throw malformed();
    }
  }

  /** After a boundary: `--` ends the body, CRLF starts another part. */
  private async afterBoundary() {
    await this.need(2);
    const [a, b] = this.buffer;
    this.buffer = this.buffer.subarray(2);
    if (a === 0x2d && b === 0x2d) this.finished = true;
    else if (a !== 0x0d || b !== 0x0a) throw malformed();
  }

  /** The next part's name and file name, or null after the last part. Its body must be read (or skipped) first. */
  async next(): Promise<PartHead | null> {
    if (!this.started) {
      this.started = true;
      // The first boundary may open the body, so it is looked for with a CRLF put before it.
      this.buffer = joined(encoder.encode('\r\n'), this.buffer);
      const at = await this.find(this.delimiter);
      this.buffer = this.buffer.subarray(at + this.delimiter.length);
      await this.afterBoundary();
    }
    if (this.finished) return null;
    const end = await this.find(HEADER_END);
    const head = headOf(new TextDecoder().decode(this.buffer.subarray(0, end)));
    this.buffer = this.buffer.subarray(end + HEADER_END.length);
    return head;
  }

  /** The current part's bytes as they arrive, up to the next boundary. */
  async *body(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const at = indexOf(this.buffer, this.delimiter);
      if (at !== -1) {
        if (at > 0) yield this.buffer.slice(0, at);
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        await this.afterBoundary();
        return;
      }
      // Everything but a tail that could be the boundary's start is the part's.
      const safe = this.buffer.length - (this.delimiter.length - 1);
      if (safe > 0) {
        yield this.buffer.slice(0, safe);
        this.buffer = this.buffer.subarray(safe);
      }
      if (!(await this.fill())) throw malformed();
    }
  }

  /** A small field's value as text; longer than `max` bytes is refused. */
  async text(max: number) {
    let bytes: Uint8Array = new Uint8Array(0);
    for await (const chunk of this.body()) {
      bytes = joined(bytes, chunk);
      if (bytes.length > max) throw new Invalid('A form field is too long', { body: ['A form field is too long'] });
    }
    return new TextDecoder().decode(bytes);
  }

  /** Stops reading: the rest of the body is not needed. */
  async cancel() {
    await this.reader.cancel().catch(() => undefined);
  }
}
