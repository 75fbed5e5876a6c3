import { apiFetch } from './api';

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
 * name; the Blob is the answer either way (a thumbnail shows it in the page).
 */
export const apiDownload = async (path: string, saveAs?: string) => {
  const blob = await (await apiFetch(path, {}, '*/*')).blob();
  if (saveAs !== undefined) saveBlob(blob, saveAs);
  return blob;
};
