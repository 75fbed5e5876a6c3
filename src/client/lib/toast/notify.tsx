import toast from 'react-hot-toast';
import { TOAST } from '../constants';
import { ToastContent, type ToastKind } from './ToastContent';

const show = (kind: ToastKind, title: string, description?: string) => {
  const content = <ToastContent kind={kind} title={title} description={description} />;
  // The same message again replaces the one on screen (restarting its time) instead of stacking a twin.
  const options = { duration: TOAST.durationMs, id: `${kind}\n${title}\n${description ?? ''}` };
  if (kind === 'success') return toast.success(content, options);
  if (kind === 'error') return toast.error(content, options);
  if (kind === 'loading') return toast.loading(content);
  return toast(content, options);
};

/** The five toast kinds of docs/architecture.md#toasts, each a title with an optional description line. */
export const notify = {
  loading: (title: string, description?: string) => show('loading', title, description),
  success: (title: string, description?: string) => show('success', title, description),
  info: (title: string, description?: string) => show('info', title, description),
  warning: (title: string, description?: string) => show('warning', title, description),
  error: (title: string, description?: string) => show('error', title, description),
  dismiss: (id?: string) => toast.dismiss(id),
};
