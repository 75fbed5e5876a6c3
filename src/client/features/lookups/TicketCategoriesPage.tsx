import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useLookupSearch } from './search';

export function TicketCategoriesPage() {
  const [{ id }] = useLookupSearch();
  return (
    <>
      <PageTitle title="Ticket categories" description="How tickets are grouped" />
      <Text c="dimmed" data-testid="selected-record">
        {id === undefined ? 'Nothing selected' : `Selected #${id}`}
      </Text>
    </>
  );
}
