import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useLookupSearch } from './search';

export function CompaniesPage() {
  const [{ id }] = useLookupSearch();
  return (
    <>
      <PageTitle title="Companies" description="Customer companies" />
      <Text c="dimmed" data-testid="selected-record">
        {id === undefined ? 'Nothing selected' : `Selected #${id}`}
      </Text>
    </>
  );
}
