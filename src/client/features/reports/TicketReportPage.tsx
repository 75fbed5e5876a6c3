import { PageTitle } from '../../lib/ui/PageTitle';

export function TicketReportPage() {
  return <PageTitle title="Ticket report" description="Ticket counts and resolution times" />;
}
