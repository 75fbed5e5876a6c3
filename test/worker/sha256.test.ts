import { describe, expect, it } from 'vitest';
import { ResumableSha256, type Sha256State } from '../../src/worker/provider/db/backup/sha256';
import { sha256Hex } from './backup-files';

/** Bytes that are not all alike, so a wrong word order or rotation shows. */
const bytesOf = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 131 + (i >> 8) * 7) & 0xff);

describe('the SHA-256 a backup carries from one invocation to the next', () => {
  it('equals WebCrypto on lengths around every block and padding edge', async () => {
    for (const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 100_003]) {
      const data = bytesOf(length);
      const hash = new ResumableSha256();
      hash.update(data);
      expect(hash.hex(), `${length} bytes`).toBe(await sha256Hex(data));
    }
  });

  it('gives the same digest when its state is saved as JSON and taken up again between any two pieces', async () => {
    const data = bytesOf(50_000);
    let hash = new ResumableSha256();
    for (let at = 0, step = 1; at < data.byteLength; at += step, step = (step * 7 + 3) % 997 || 1) {
      hash.update(data.subarray(at, at + step));
      hash = new ResumableSha256(JSON.parse(JSON.stringify(hash.state())) as Sha256State);
    }
    expect(hash.hex()).toBe(await sha256Hex(data));
  });
});
