import { Button, Paper, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { APP_AUDIENCE } from '../../../shared/constants';
import { ApiError } from '../../lib/api';
import { signIn, signOutNotice } from '../../lib/auth-store';
import { callApi } from '../../lib/endpoints';
import { useRoutePreload } from '../../lib/route-preload';
import { signedOutHere } from '../../lib/signed-out-here';
import { notify } from '../../lib/toast/notify';
import { safeRedirect } from './redirect';

/**
 * "Continue as <email>" when Cloudflare Access vouches for the person (docs/api.md#cloudflare-access);
 * nothing otherwise. It continues by itself on arrival, except when the person has just signed out
 * in this tab, or the page says why the session ended (another tab signed out, or the server ended it):
 * continuing then would undo what just happened. Built from parts the sign-in page already loads.
 */
export function AccessContinue() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const preloadRoute = useRoutePreload();
  const [email, setEmail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const continued = useRef(false);

  const continueAs = useCallback(async () => {
    const destination = safeRedirect(search.get('redirect'));
    preloadRoute(destination, { withShell: true });
    setBusy(true);
    setRefusal(null);
    try {
      signIn(await callApi('POST /auth/access', { body: { audience: APP_AUDIENCE }, authenticated: false }));
      preloadRoute(destination, { data: true });
      navigate(destination, { replace: true });
    } catch (error) {
      setBusy(false);
      // 403: Access knows the person and the app does not; said beside the button, which stays.
      if (error instanceof ApiError && error.status === 403) setRefusal(error.message);
      else notify.error('Company sign-in failed', error instanceof ApiError ? error.message : 'Please try again, or sign in with your password.');
    }
  }, [navigate, preloadRoute, search]);

  useEffect(() => {
    const controller = new AbortController();
    callApi('GET /auth/access', { authenticated: false, signal: controller.signal }).then(
      (identity) => {
        setEmail(identity?.email ?? null);
        if (!identity || continued.current || signedOutHere.get() || signOutNotice.reason) return;
        continued.current = true;
        void continueAs();
      },
      // Access is an extra way in: without its answer the password form is all there is.
      () => undefined,
    );
    return () => controller.abort();
  }, [continueAs]);

  if (!email) return null;
  return (
    <Stack gap="xs">
      <Button onClick={() => void continueAs()} loading={busy} disabled={busy} fullWidth>
        <Text span inherit truncate="end">
          Continue as {email}
        </Text>
      </Button>
      {refusal && (
        <Paper role="alert" p="sm" radius="sm" bg="var(--mantine-color-red-light)" c="var(--mantine-color-red-light-color)">
          <Text size="sm">{refusal}</Text>
        </Paper>
      )}
      <Text size="sm" c="dimmed" ta="center">
        or sign in with your password
      </Text>
    </Stack>
  );
}
