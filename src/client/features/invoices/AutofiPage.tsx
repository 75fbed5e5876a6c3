import { LedgerPage } from './LedgerPage';

export function AutofiPage() {
  return <LedgerPage source="autofi" title="Autofi" description="Autofi vehicle tracking billing" />;
}
