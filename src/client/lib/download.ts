import { apiDownload } from './api';

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

/** Downloads an API file; the server's export honours the same filters as the page. */
export const downloadFromApi = async (path: string, filename: string) => saveBlob(await apiDownload(path), filename);
