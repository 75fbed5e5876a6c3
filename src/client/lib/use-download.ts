import { useState } from 'react';
import { notify } from './toast/notify';

/**
 * A download button's state: busy while `start`'s download runs, and one error toast titled
 * `failure` when it fails (a download that works says nothing: the browser shows the file).
 */
export const useDownload = (failure: string) => {
  const [busy, setBusy] = useState(false);
  const start = async (download: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await download();
    } catch (error) {
      notify.error(failure, (error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, start };
};
