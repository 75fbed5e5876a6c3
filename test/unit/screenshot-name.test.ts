import { describe, expect, it } from 'vitest';
import { nameScreenshots } from '../../src/client/features/tickets/screenshot-name';

const file = (name: string, type: string) => new File([new Uint8Array([1, 2, 3])], name, { type });
// 26 Nov 2026, 14:02:41 local time: the name is the clock on the wall, not UTC.
const AT = new Date(2026, 10, 26, 14, 2, 41);
const names = (files: File[]) => nameScreenshots(files, AT).map((f) => f.name);

describe('nameScreenshots', () => {
  it('names a pasted image.png or blob by its local time', () => {
    expect(names([file('image.png', 'image/png')])).toEqual(['Screenshot 2026-11-26 14.02.png']);
    expect(names([file('blob', 'image/png')])).toEqual(['Screenshot 2026-11-26 14.02.png']);
    expect(names([file('', 'image/jpeg')])).toEqual(['Screenshot 2026-11-26 14.02.jpg']);
    expect(names([file('Image.PNG', 'image/webp')])).toEqual(['Screenshot 2026-11-26 14.02.webp']);
  });

  it('numbers several from one paste, and pads months, days and hours', () => {
    const early = new Date(2026, 0, 5, 9, 7);
    expect(nameScreenshots([file('image.png', 'image/png'), file('image.png', 'image/png')], early).map((f) => f.name)).toEqual([
      'Screenshot 2026-01-05 09.07.png',
      'Screenshot 2026-01-05 09.07 (2).png',
    ]);
  });

  it('numbers past the names already taken', () => {
    const renamed = nameScreenshots([file('image.png', 'image/png')], AT, ['Screenshot 2026-11-26 14.02.png', 'Screenshot 2026-11-26 14.02 (2).png']);
    expect(renamed.map((f) => f.name)).toEqual(['Screenshot 2026-11-26 14.02 (3).png']);
  });

  it('keeps real names, and files that are not images', () => {
    expect(names([file('invoice scan.png', 'image/png'), file('image.png', 'application/octet-stream'), file('blob', 'text/plain')])).toEqual([
      'invoice scan.png',
      'image.png',
      'blob',
    ]);
  });

  it('keeps the bytes and the type', async () => {
    const [renamed] = nameScreenshots([file('image.png', 'image/png')], AT);
    if (!renamed) throw new Error('no file came back');
    expect(renamed.type).toBe('image/png');
    expect(new Uint8Array(await renamed.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });
});
