import { fromBase64url, toBase64url } from '../../../shared/base64url';
import type { AddPasskeyPayload, PasskeyLoginPayload } from '../../../shared/schemas/passkeys';
import type { PasskeyCreationOptions, PasskeyRequestOptions } from '../../../shared/types';

/**
 * The browser's side of a passkey (docs/api.md#passkeys): the provider's options, which carry
 * binary values as base64url, turned into what navigator.credentials takes, and the credential it
 * answers turned back into the JSON the provider reads. Loaded only when a passkey is used (a
 * dynamic import), so the sign-in page's script stays in its budget
 * (docs/decisions.md#performance-budgets).
 */

const bytes = (value: ArrayBuffer) => toBase64url(new Uint8Array(value));

const descriptors = (list: PasskeyCreationOptions['excludeCredentials']): PublicKeyCredentialDescriptor[] =>
  list.map(({ id, transports }) => ({ type: 'public-key', id: fromBase64url(id), transports: transports as AuthenticatorTransport[] | undefined }));

/** Makes a passkey on this device (or a phone, or a key) for the options register-options gave. */
export const createPasskey = async (options: PasskeyCreationOptions): Promise<AddPasskeyPayload['response']> => {
  const credential = (await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: fromBase64url(options.challenge),
      user: { ...options.user, id: fromBase64url(options.user.id) },
      excludeCredentials: descriptors(options.excludeCredentials),
    },
  })) as PublicKeyCredential | null;
  if (!credential) throw new DOMException('No passkey was made', 'NotAllowedError');
  const response = credential.response as AuthenticatorAttestationResponse;
  return {
    id: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON: bytes(response.clientDataJSON),
      attestationObject: bytes(response.attestationObject),
      transports: response.getTransports?.() ?? [],
    },
  };
};

/**
 * Asks for a passkey to sign in with. `conditional` offers them in the email field's autofill
 * instead of a dialog, waiting until the person picks one (or `signal` ends the wait).
 */
export const getPasskey = async (options: PasskeyRequestOptions, { conditional = false, signal }: { conditional?: boolean; signal?: AbortSignal } = {}): Promise<PasskeyLoginPayload['response']> => {
  const credential = (await navigator.credentials.get({
    publicKey: { ...options, challenge: fromBase64url(options.challenge), allowCredentials: descriptors(options.allowCredentials) },
    ...(conditional ? { mediation: 'conditional' as CredentialMediationRequirement } : {}),
    signal,
  })) as PublicKeyCredential | null;
  if (!credential) throw new DOMException('No passkey was chosen', 'NotAllowedError');
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON: bytes(response.clientDataJSON),
      authenticatorData: bytes(response.authenticatorData),
      signature: bytes(response.signature),
      userHandle: response.userHandle ? bytes(response.userHandle) : null,
    },
  };
};

/** Whether the browser offers passkeys in autofill (conditional mediation). */
export const autofillAvailable = async () =>
  typeof PublicKeyCredential !== 'undefined' && typeof PublicKeyCredential.isConditionalMediationAvailable === 'function' && (await PublicKeyCredential.isConditionalMediationAvailable());

/** A person closing the browser's passkey dialog, or a wait given up on: not a failure to report. */
export const wasCancelled = (error: unknown) => error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError');
