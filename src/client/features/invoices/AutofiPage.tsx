import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useLineSearch } from './search';

export function AutofiPage() {
  const [{ lineId }] = useLineSearch();
  return (
    <>
      <PageTitle title="Autofi" description="Autofi invoice lines" />
      <Text c="dimmed" data-testid="selected-record">
        {lineId === undefined ? 'Nothing selected' : `Selected #${lineId}`}
      </Text>
    </>
  );
}
