import { ApiError, apiFetch } from './api';

export const CUT_OFF_MESSAGE = 'The download was cut off before the end, so nothing was saved; try again';

/** Hands a Blob to the browser as a file download. */
export const saveBlob = (blob: Blob, filename: string) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

export const saveCsv = (csv: string, filename: string) => saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);

/**
 * A file from the API (an export, a backup, an attachment), fetched with the token in its header
 * like any other call, never in an address. Given a file name, the browser saves it under that
 * name; the Blob is the answer either way (a thumbnail shows it in the page). A body that breaks
 * off, or that `isWhole` finds incomplete (an export's end line missing), is an error, and nothing
 * is saved: a file cut short must never look like a whole one.
 */
export const apiDownload = async (path: string, saveAs?: string, isWhole?: (blob: Blob) => Promise<boolean>) => {
  const response = await apiFetch(path, { download: true }, '*/*');
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new ApiError(0, CUT_OFF_MESSAGE);
  }
  if (isWhole && !(await isWhole(blob))) throw new ApiError(0, CUT_OFF_MESSAGE);
  if (saveAs !== undefined) saveBlob(blob, saveAs);
  return blob;
};
