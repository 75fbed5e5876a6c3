/**
 * SHA-256 whose running state can be saved and taken up again, because a backup hashes a table's
 * rows across several invocations of the Worker and neither WebCrypto nor workerd's DigestStream
 * lets a digest outlive one. FIPS 180-4, on 32-bit words.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** What a hash in progress needs to go on: the chaining value, the bytes of an unfinished block, the length so far. */
export interface Sha256State {
  h: number[];
  /** Hex of the bytes not yet making a whole 64-byte block. */
  pending: string;
  bytes: number;
}

export const emptySha256State = (): Sha256State => ({ h: [...INITIAL], pending: '', bytes: 0 });

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export class ResumableSha256 {
  private readonly h: Uint32Array;
  private readonly block = new Uint8Array(64);
  private filled: number;
  private bytes: number;
  private readonly w = new Uint32Array(64);

  constructor(state: Sha256State = emptySha256State()) {
    this.h = Uint32Array.from(state.h);
    const pending = fromHex(state.pending);
    this.block.set(pending);
    this.filled = pending.byteLength;
    this.bytes = state.bytes;
  }

  update(data: Uint8Array) {
    this.bytes += data.byteLength;
    let at = 0;
    if (this.filled) {
      const used = Math.min(64 - this.filled, data.byteLength);
      this.block.set(data.subarray(0, used), this.filled);
      this.filled += used;
      at = used;
      if (this.filled < 64) return;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= data.byteLength; at += 64) this.compress(data, at);
    this.block.set(data.subarray(at));
    this.filled = data.byteLength - at;
  }

  state(): Sha256State {
    return { h: Array.from(this.h), pending: hexOf(this.block.subarray(0, this.filled)), bytes: this.bytes };
  }

  hex(): string {
    const bits = this.bytes * 8;
    const padding = new Uint8Array((this.filled < 56 ? 56 : 120) - this.filled + 8);
    padding[0] = 0x80;
    const view = new DataView(padding.buffer);
    view.setUint32(padding.byteLength - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(padding.byteLength - 4, bits >>> 0);
    const bytes = this.bytes;
    this.update(padding);
    this.bytes = bytes;
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    this.h.forEach((word, i) => outView.setUint32(i * 4, word));
    return hexOf(out);
  }

  private compress(data: Uint8Array, at: number) {
    const { w, h } = this;
    for (let i = 0; i < 16; i += 1) {
      const j = at + i * 4;
      w[i] = ((data[j] as number) << 24) | ((data[j + 1] as number) << 16) | ((data[j + 2] as number) << 8) | (data[j + 3] as number);
    }
    for (let i = 16; i < 64; i += 1) {
      const a = w[i - 15] as number;
      const b = w[i - 2] as number;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
    }
    let a = h[0] as number, b = h[1] as number, c = h[2] as number, d = h[3] as number;
    let e = h[4] as number, f = h[5] as number, g = h[6] as number, k = h[7] as number;
    for (let i = 0; i < 64; i += 1) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + s1 + ((e & f) ^ (~e & g)) + (K[i] as number) + (w[i] as number)) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0] as number) + a;
    h[1] = (h[1] as number) + b;
    h[2] = (h[2] as number) + c;
    h[3] = (h[3] as number) + d;
    h[4] = (h[4] as number) + e;
    h[5] = (h[5] as number) + f;
    h[6] = (h[6] as number) + g;
    h[7] = (h[7] as number) + k;
  }
}
