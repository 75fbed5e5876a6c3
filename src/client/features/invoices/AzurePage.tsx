import { LedgerPage } from './LedgerPage';

export function AzurePage() {
  return <LedgerPage source="gifs-azure" title="GIFS Azure" description="GIFS Azure consumption" />;
}
