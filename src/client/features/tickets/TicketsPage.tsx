import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useTicketsSearch } from './search';

export function TicketsPage() {
  const [{ id }] = useTicketsSearch();
  return (
    <>
      <PageTitle title="Tickets" description="Service desk tickets" />
      <Text c="dimmed" data-testid="selected-record">
        {id === undefined ? 'Nothing selected' : `Selected #${id}`}
      </Text>
    </>
  );
}
