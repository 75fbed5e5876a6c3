import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useStatementSearch } from './search';

export function StatementPage() {
  const [{ statementId }] = useStatementSearch();
  return (
    <>
      <PageTitle title="GIFS statements" description="Monthly GIFS statements" />
      <Text c="dimmed" data-testid="selected-record">
        {statementId === undefined ? 'Nothing selected' : `Selected #${statementId}`}
      </Text>
    </>
  );
}
