import { LedgerPage } from './LedgerPage';

export function SlaPage() {
  return <LedgerPage source="gifs-sla" title="GIFS SLA" description="GIFS service level fees" />;
}
