import { PageTitle } from '../../lib/ui/PageTitle';

export function GifsOverviewPage() {
  return <PageTitle title="GIFS" description="Statements, SLA and Azure billing" />;
}
