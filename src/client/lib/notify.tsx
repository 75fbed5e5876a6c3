import toast from 'react-hot-toast';

/** Toasts with a title and an optional description line (SPEC.md §8 messages). */
const content = (title: string, description?: string) => (
  <div>
    <strong>{title}</strong>
    {description ? <div>{description}</div> : null}
  </div>
);

export const notify = {
  success: (title: string, description?: string) => toast.success(content(title, description)),
  error: (title: string, description?: string) => toast.error(content(title, description)),
};
