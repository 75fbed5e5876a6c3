import { PageTitle } from '../../lib/ui/PageTitle';

export function TimesheetPage() {
  return <PageTitle title="Timesheet" description="Hours per person per day" />;
}
