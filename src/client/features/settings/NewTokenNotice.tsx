import { Alert, Button, CopyButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { CreatedApiToken } from '../../../shared/types';

/**
 * A new API token's one showing (docs/api.md#api-tokens): the provider keeps only its hash, so
 * this is the only place it can be copied from. Focus moves here so a screen reader hears it.
 */
export function NewTokenNotice({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [created.id]);
  return (
    <Alert color="yellow" variant="light" role="region" title={<span>Copy your new token now</span>}>
      <Stack gap="xs">
        <Text ref={heading} tabIndex={-1} fw={500} component="h4" m={0}>
          Token “{created.name}” created
        </Text>
        <Text size="sm">You will not see it again. Store it somewhere safe, such as your password manager or your CI’s secrets.</Text>
        {/* A text area, not an input: the whole token stays in sight on a phone, wrapped anywhere. */}
        <Textarea
          label="New token"
          value={created.token}
          readOnly
          autosize
          minRows={1}
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace', wordBreak: 'break-all' } }}
        />
        <Group gap="xs">
          <CopyButton value={created.token}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined} aria-live="polite">
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
