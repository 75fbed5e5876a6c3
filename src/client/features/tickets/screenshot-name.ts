/** The names a browser gives a pasted image that tell nobody anything: `image.png`, `blob`. */
const GENERIC = /^(image|blob)?(\.[a-z0-9]+)?$/i;
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif' };

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Pasted or dropped files as they should be stored: an image under a generic name becomes
 * `Screenshot 2026-11-26 14.02.png`, by the local time it arrived, with ` (2)`, ` (3)` after it
 * when that name is `taken` already or by another file of the same paste; any other file keeps
 * its name.
 */
export const nameScreenshots = (files: readonly File[], now = new Date(), taken: Iterable<string> = []) => {
  const stamp = `Screenshot ${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())} ${two(now.getHours())}.${two(now.getMinutes())}`;
  const used = new Set(taken);
  return files.map((file) => {
    if (!file.type.startsWith('image/') || !GENERIC.test(file.name)) return file;
    const extension = EXTENSIONS[file.type] ?? 'png';
    let name = `${stamp}.${extension}`;
    for (let n = 2; used.has(name); n += 1) name = `${stamp} (${n}).${extension}`;
    used.add(name);
    return new File([file], name, { type: file.type, lastModified: file.lastModified });
  });
};
