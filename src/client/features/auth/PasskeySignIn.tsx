import { Button } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { APP_AUDIENCE } from '../../../shared/constants';
import type { PasskeyLoginPayload } from '../../../shared/schemas/passkeys';
import { ApiError } from '../../lib/api';
import { signIn } from '../../lib/auth-store';
import { callApi } from '../../lib/endpoints';
import { useRoutePreload } from '../../lib/route-preload';
import { notify } from '../../lib/toast/notify';
import { safeRedirect } from './redirect';

// The browser side of WebAuthn loads only when the page can use it (docs/decisions.md#performance-budgets).
const ceremony = () => import('../../lib/passkeys/ceremony');

// A sign-in challenge lives 5 minutes; an autofill offer left open that long asks for a new one.
const AUTOFILL_RENEW_MS = 4 * 60 * 1000;

const supported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential !== 'undefined';

/**
 * "Sign in with a passkey", and the same passkeys offered in the email field's autofill
 * (conditional mediation: the field's autocomplete has `webauthn`). Either way the provider
 * checks the answer and signs the person in as a password would (docs/api.md#passkeys).
 */
export function PasskeySignIn() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const preloadRoute = useRoutePreload();
  const [busy, setBusy] = useState(false);
  const autofill = useRef<{ pause: () => void; resume: () => void } | null>(null);

  const finish = useCallback(
    async (response: PasskeyLoginPayload['response']) => {
      const destination = safeRedirect(search.get('redirect'));
      preloadRoute(destination, { withShell: true });
      signIn(await callApi('POST /auth/passkeys/login', { body: { response, audience: APP_AUDIENCE }, authenticated: false }));
      preloadRoute(destination, { data: true });
      navigate(destination, { replace: true });
    },
    [navigate, preloadRoute, search],
  );

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) notify.error('Passkey not accepted', error.message);
    // An upstream API (UPSTREAM_API_URL) that has no passkey calls.
    else if (error instanceof ApiError && error.status === 404) notify.error('Passkey sign-in failed', 'Passkeys are not available with this server.');
    else notify.error('Passkey sign-in failed', 'Please try again, or sign in with your password.');
  };

  // The autofill offer: open while the page is, renewed before its challenge expires, paused
  // while the button's dialog runs (a browser serves one passkey request at a time).
  useEffect(() => {
    if (!supported()) return undefined;
    let stopped = false;
    let paused = false;
    let current: AbortController | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offer = async () => {
      const { autofillAvailable, getPasskey } = await ceremony();
      if (stopped || paused || current || !(await autofillAvailable())) return;
      const controller = new AbortController();
      current = controller;
      let renewed = false;
      timer = setTimeout(() => {
        renewed = true;
        controller.abort();
      }, AUTOFILL_RENEW_MS);
      // Only a refusal of the passkey picked is worth a message: without options (an upstream API
      // with no passkeys, the network) the page simply offers no autofill.
      let picked = false;
      try {
        const options = await callApi('POST /auth/passkeys/login-options', { authenticated: false, signal: controller.signal });
        const response = await getPasskey(options, { conditional: true, signal: controller.signal });
        picked = true;
        await finish(response);
      } catch (error) {
        // Superseded (paused for the dialog, or the page left): whoever stopped it decides what follows.
        if (current !== controller) return;
        current = null;
        if (renewed) return void offer();
        // The provider refused the passkey picked: said. The offer is not made again by itself
        // (an authenticator that answers on its own would ask again and again); the button
        // stays as the way in, as it does when the browser declines.
        if (picked) failed(error);
      } finally {
        clearTimeout(timer);
      }
    };
    const stop = () => {
      const controller = current;
      current = null;
      controller?.abort();
    };
    autofill.current = {
      pause: () => {
        paused = true;
        stop();
      },
      resume: () => {
        paused = false;
        void offer().catch(() => undefined);
      },
    };
    void offer().catch(() => undefined);
    return () => {
      stopped = true;
      stop();
      autofill.current = null;
    };
  }, [finish]);

  const signInWithPasskey = async () => {
    autofill.current?.pause();
    setBusy(true);
    try {
      const { getPasskey, wasCancelled } = await ceremony();
      try {
        const options = await callApi('POST /auth/passkeys/login-options', { authenticated: false });
        await finish(await getPasskey(options));
        return;
      } catch (error) {
        if (!wasCancelled(error)) failed(error);
      }
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
    autofill.current?.resume();
  };

  if (!supported()) return null;
  return (
    <Button variant="default" onClick={() => void signInWithPasskey()} loading={busy} disabled={busy} fullWidth>
      Sign in with a passkey
    </Button>
  );
}
