import { Loader, Text } from '@mantine/core';
import classes from './toast.module.css';

export type ToastKind = 'loading' | 'success' | 'info' | 'warning' | 'error';

const ICONS: Record<Exclude<ToastKind, 'loading'>, string> = {
  success: '✓',
  info: 'i',
  warning: '!',
  error: '×',
};

/** The inside of a toast; the kind picks its rich colour. */
export function ToastContent({ kind, title, description }: { kind: ToastKind; title: string; description?: string }) {
  return (
    <div className={classes.content} data-kind={kind} data-testid="toast">
      <span className={classes.icon} aria-hidden>
        {kind === 'loading' ? <Loader size={14} color="currentColor" /> : ICONS[kind]}
      </span>
      <div>
        <Text fw={600} size="sm" className={classes.title}>
          {title}
        </Text>
        {description ? (
          <Text size="sm" className={classes.description}>
            {description}
          </Text>
        ) : null}
      </div>
    </div>
  );
}
