import { Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { renamePasskeySchema } from '../../../shared/schemas/passkeys';
import type { Passkey } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { callApi } from '../../lib/endpoints';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/toast/notify';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { LoadError } from '../../lib/ui/LoadError';
import { useApi } from '../../lib/use-api';

// The browser side of WebAuthn, loaded when a passkey is added (docs/decisions.md#performance-budgets).
const ceremony = () => import('../../lib/passkeys/ceremony');

/** The schema's message for a name it refuses, or null. */
const nameFault = (name: string) => {
  try {
    renamePasskeySchema.validateSync({ name });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'Name is required';
  }
};

const failureOf = (error: unknown) => (error instanceof ApiError ? error.message : 'Please try again.');

function AddPasskey({ onAdded }: { onAdded: () => Promise<unknown> }) {
  const [name, setName] = useState('');
  const [fault, setFault] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const refused = nameFault(name);
    setFault(refused);
    if (refused) return;
    setBusy(true);
    try {
      const { createPasskey, wasCancelled } = await ceremony();
      try {
        const response = await createPasskey(await callApi('POST /auth/passkeys/register-options'));
        await callApi('POST /auth/passkeys', { body: { name, response } });
        setName('');
        notify.success('Passkey added', `${name.trim()} can sign you in from now on.`);
        await onAdded();
      } catch (error) {
        // Closing the browser's dialog adds nothing and needs no message; this device may also already hold one.
        if (error instanceof DOMException && error.name === 'InvalidStateError') notify.error('Passkey not added', 'This device already holds a passkey for your account.');
        else if (!wasCancelled(error)) notify.error('Passkey not added', failureOf(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void add(event)} noValidate>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Name for a new passkey"
          description="Where it lives, such as Work laptop or Phone"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={fault}
          style={{ flex: '1 1 14rem' }}
        />
        <Button type="submit" loading={busy} disabled={busy}>
          Add a passkey
        </Button>
      </Group>
    </form>
  );
}

function PasskeyRow({ passkey, onChanged }: { passkey: Passkey; onChanged: () => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [fault, setFault] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Leaving the rename form (saved or cancelled) puts focus back on its Rename button, not the page.
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !editing) renameButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    const refused = nameFault(name);
    setFault(refused);
    if (refused) return;
    setBusy(true);
    try {
      await callApi('PATCH /auth/passkeys/:id', { params: { id: passkey.id }, body: { name } });
      setEditing(false);
      notify.success('Passkey renamed');
      await onChanged();
    } catch (error) {
      notify.error('Passkey not renamed', failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await callApi('DELETE /auth/passkeys/:id', { params: { id: passkey.id } });
      setConfirming(false);
      notify.success('Passkey removed');
      await onChanged();
    } catch (error) {
      notify.error('Passkey not removed', failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="sm" component="li" aria-label={passkey.name}>
      {editing ? (
        <form onSubmit={(event) => void rename(event)} noValidate>
          <Group align="flex-end" wrap="wrap">
            <TextInput label={`New name for ${passkey.name}`} value={name} onChange={(event) => setName(event.currentTarget.value)} error={fault} style={{ flex: '1 1 12rem' }} data-autofocus autoFocus />
            <Group gap="xs">
              <Button type="submit" loading={busy} disabled={busy}>
                Save
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  setEditing(false);
                  setName(passkey.name);
                  setFault(null);
                }}
              >
                Cancel
              </Button>
            </Group>
          </Group>
        </form>
      ) : (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {passkey.name}
            </Text>
            <Text size="sm" c="dimmed">
              Added {formatDateTime(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : 'Not used yet'}
            </Text>
          </div>
          <Group gap="xs">
            <Button ref={renameButton} variant="default" size="xs" onClick={() => setEditing(true)} aria-label={`Rename ${passkey.name}`}>
              Rename
            </Button>
            <Button variant="default" color="red" size="xs" onClick={() => setConfirming(true)} aria-label={`Remove ${passkey.name}`}>
              Remove
            </Button>
          </Group>
        </Group>
      )}
      <ConfirmDialog opened={confirming} onClose={() => setConfirming(false)} title="Remove passkey" confirmLabel="Remove passkey" onConfirm={() => void remove()} busy={busy}>
        <Text>
          Remove <strong>{passkey.name}</strong>? It will no longer sign you in. The passkey stays on its device until you delete it there.
        </Text>
      </ConfirmDialog>
    </Paper>
  );
}

/** Settings → Security: the person's passkeys, to add, rename and remove (docs/api.md#passkeys). */
export function PasskeysSection() {
  const passkeys = useApi('GET /auth/passkeys');
  const refresh = () => passkeys.mutate();
  const supported = typeof window.PublicKeyCredential !== 'undefined';
  return (
    <Stack component="section" aria-labelledby="passkeys-title">
      <Title order={3} id="passkeys-title">
        Passkeys
      </Title>
      <Text size="sm">Sign in with your fingerprint, face or screen lock instead of your password. Your password keeps working.</Text>
      {passkeys.error instanceof ApiError && passkeys.error.status === 404 ? (
        // An upstream API without passkeys (UPSTREAM_API_URL): nothing to list or add.
        <Text c="dimmed">Passkeys are not available with this server.</Text>
      ) : passkeys.error ? (
        <LoadError title="Passkeys could not be loaded" error={passkeys.error} onRetry={() => void refresh()} />
      ) : !passkeys.data ? (
        <Skeleton height={60} />
      ) : passkeys.data.items.length === 0 ? (
        <Text c="dimmed">You have no passkeys yet.</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your passkeys">
          {passkeys.data.items.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onChanged={refresh} />
          ))}
        </Stack>
      )}
      {!passkeys.data ? null : supported ? <AddPasskey onAdded={refresh} /> : <Text c="dimmed">This browser cannot make passkeys.</Text>}
    </Stack>
  );
}
