import { useEffect, useState } from 'react';
import { API_BASE } from '../../../shared/constants';
import type { Attachment } from '../../../shared/schemas/attachments';
import { ApiError } from '../../lib/api';
import { authState } from '../../lib/auth-store';
import { apiDownload } from '../../lib/download';
import { apiPath, callApi } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

export const useAttachments = (ticketId: number) => useApi('GET /tickets/:id/attachments', { params: { id: ticketId } });
export const deleteAttachment = (id: number) => callApi('DELETE /attachments/:id', { params: { id } });

const bodyOf = (text: string): { message?: string; detail?: string } | null => {
  try {
    return JSON.parse(text) as { message?: string; detail?: string };
  } catch {
    return null;
  }
};

const errorOf = (xhr: XMLHttpRequest) => {
  const body = bodyOf(xhr.responseText);
  return new ApiError(xhr.status, body?.message ?? body?.detail ?? (xhr.status ? `Upload failed with status ${xhr.status}` : 'Could not reach the server'), body);
};

/**
 * Sends one file as multipart/form-data. XMLHttpRequest rather than fetch: only it reports how
 * much of a request body has gone out, which the progress bar shows. The token goes in the
 * header, as on every call.
 */
export const uploadAttachment = (ticketId: number, file: File, onProgress: (fraction: number) => void, commentId?: number) =>
  new Promise<Attachment>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/${apiPath('POST /tickets/:id/attachments', { params: { id: ticketId } })}`);
    if (authState.token) xhr.setRequestHeader('authorization', `Bearer ${authState.token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => (xhr.status === 201 ? resolve(JSON.parse(xhr.responseText) as Attachment) : reject(errorOf(xhr)));
    xhr.onerror = () => reject(errorOf(xhr));
    const form = new FormData();
    form.set('file', file, file.name);
    if (commentId !== undefined) form.set('commentId', String(commentId));
    xhr.send(form);
  });

export const contentPath = (id: number) => apiPath('GET /attachments/:id/content', { params: { id } });

/**
 * An image attachment as an object URL: fetched with the token in its header, never an address
 * holding it. The URL is released when the thumbnail goes.
 */
export const useObjectUrl = (id: number) => {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let live = true;
    apiDownload(contentPath(id))
      .then((blob) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id]);
  return url;
};
