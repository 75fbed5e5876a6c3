import { Text } from '@mantine/core';
import { PageTitle } from '../../lib/ui/PageTitle';
import { useLineSearch } from './search';

export function ThreeDTrackingPage() {
  const [{ lineId }] = useLineSearch();
  return (
    <>
      <PageTitle title="3D Tracking" description="3D Tracking invoice lines" />
      <Text c="dimmed" data-testid="selected-record">
        {lineId === undefined ? 'Nothing selected' : `Selected #${lineId}`}
      </Text>
    </>
  );
}
