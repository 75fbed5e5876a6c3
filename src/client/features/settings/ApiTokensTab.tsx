import { Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { API_TOKEN_DAYS_MAX, API_TOKEN_DAYS_MIN, createApiTokenSchema, type CreateApiTokenPayload } from '../../../shared/schemas/api-tokens';
import type { CreatedApiToken } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { callApi } from '../../lib/endpoints';
import { ChoiceField, NumberField, TextField } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { useCan } from '../../lib/permissions';
import { LoadError } from '../../lib/ui/LoadError';
import { useApi } from '../../lib/use-api';
import { ApiTokenRow } from './ApiTokenRow';
import { NewTokenNotice } from './NewTokenNotice';

const validate = validateWith(createApiTokenSchema);

const ACCESS_CHOICES = [
  { value: 'read', label: 'Read only' },
  { value: 'write', label: 'Read and write' },
];

const BLANK: Partial<CreateApiTokenPayload> = { name: '', expiresInDays: 30, access: 'read' };

/**
 * Settings → API tokens (docs/api.md#api-tokens): the person's own tokens to make and remove;
 * admins may switch to everyone's, each with its owner.
 */
export function ApiTokensTab() {
  const mayAll = useCan('manageAnyApiToken');
  const [all, setAll] = useState(false);
  const everyone = mayAll && all;
  const tokens = useApi('GET /auth/api-tokens', { query: { all: everyone || undefined } });
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const refresh = () => tokens.mutate();

  const create: Mutation<CreateApiTokenPayload, CreatedApiToken> = {
    send: (values) => callApi('POST /auth/api-tokens', { body: values }),
    success: (result) => ['API token created', `Copy “${result.name}” now: it is shown only once.`],
    failure: 'API token not created',
    onSuccess: (result) => {
      setCreated(result);
      return refresh();
    },
  };

  const items = tokens.data?.items;
  const unavailable = tokens.error instanceof ApiError && tokens.error.status === 404;
  return (
    <Stack gap="xl">
      <Stack component="section" aria-labelledby="api-tokens-title">
        <Title order={3} id="api-tokens-title">
          API tokens
        </Title>
        <Text size="sm">
          A token lets a script or another system call this app’s API as you, with your role: send it as <code>Authorization: Bearer sat_…</code>. A
          read-only token cannot change anything. Tokens stop working when they expire, when you remove them, or when your password or role changes.
        </Text>
        {mayAll ? <Switch label="Show everyone’s tokens" checked={all} onChange={(event) => setAll(event.currentTarget.checked)} /> : null}
        {unavailable ? (
          // An upstream API without tokens (UPSTREAM_API_URL): nothing to list or make.
          <Text c="dimmed">API tokens are not available with this server.</Text>
        ) : tokens.error ? (
          <LoadError title="API tokens could not be loaded" error={tokens.error} onRetry={() => void refresh()} />
        ) : !items ? (
          <Skeleton height={60} />
        ) : items.length === 0 ? (
          <Text c="dimmed">{everyone ? 'Nobody has API tokens.' : 'You have no API tokens.'}</Text>
        ) : (
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={everyone ? 'Everyone’s API tokens' : 'Your API tokens'}>
            {items.map((token) => (
              <ApiTokenRow key={token.id} token={token} onRemoved={refresh} />
            ))}
          </Stack>
        )}
      </Stack>
      {created ? <NewTokenNotice created={created} onDone={() => setCreated(null)} /> : null}
      {unavailable ? null : (
        <MutationForm<CreateApiTokenPayload, CreatedApiToken> mutation={create} validate={validate} initialValues={BLANK} next={() => BLANK}>
          {({ submitting }) => (
            <Stack component="section" aria-labelledby="create-token-title">
              <Title order={3} id="create-token-title">
                Create token
              </Title>
              <TextField name="name" label="Name" description="What uses it, such as Nightly export" />
              <ChoiceField name="access" label="Access" data={ACCESS_CHOICES} />
              <NumberField
                name="expiresInDays"
                label="Expires in (days)"
                description={`From ${API_TOKEN_DAYS_MIN} to ${API_TOKEN_DAYS_MAX}`}
                min={API_TOKEN_DAYS_MIN}
                max={API_TOKEN_DAYS_MAX}
                allowDecimal={false}
              />
              <SubmitButton label="Create token" submitting={submitting} />
            </Stack>
          )}
        </MutationForm>
      )}
    </Stack>
  );
}
