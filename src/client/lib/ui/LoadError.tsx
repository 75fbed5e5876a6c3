import { Alert, Button, Group, Text } from '@mantine/core';

interface LoadErrorProps {
  title: string;
  error: Error;
  onRetry: () => void;
}

/** A read that failed, in place of what it would have shown, with a way to ask again. */
export function LoadError({ title, error, onRetry }: LoadErrorProps) {
  return (
    <Alert color="red" title={title}>
      <Group justify="space-between">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
