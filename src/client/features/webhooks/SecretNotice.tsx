import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** The signing secret, shown once after a hook is made: the provider keeps it but never sends it again. */
export function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title="Copy the signing secret now">
        <Text size="sm">You will not see it again. The receiver checks each delivery's webhook-signature header with it.</Text>
      </Alert>
      <Code block data-testid="webhook-secret" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {secret}
      </Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy} aria-live="polite">
              {copied ? 'Copied' : 'Copy secret'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
