import { array, object, string, type InferType } from 'yup';
import { isBase64url } from '../base64url';
import { filledLine, rawLine } from './fields';

/** A passkey's name as people see it in Settings → Security ("Work laptop"). */
export const PASSKEY_NAME_MAX = 100;

// WebAuthn caps a credential id at 1,023 bytes; the rest are generous for what authenticators
// send, and keep a body from holding megabytes of "signature".
const CREDENTIAL_ID_MAX = 1_400;
const CLIENT_DATA_MAX = 8_192;
const ATTESTATION_MAX = 65_536;
const AUTHENTICATOR_DATA_MAX = 8_192;
const SIGNATURE_MAX = 2_048;
const USER_HANDLE_MAX = 100;

const binary = (max: number) =>
  string()
    .max(max, `Must be at most ${max} characters`)
    .test('base64url', 'Must be base64url', (value) => value == null || isBase64url(value));

const name = () => filledLine(PASSKEY_NAME_MAX, 'Name is required').required('Name is required');

/**
 * What a browser's PublicKeyCredential gives as JSON (its toJSON()), as the provider reads it.
 * Browsers add members of their own (clientExtensionResults, authenticatorAttachment, the
 * public key again), which are let through unread.
 */
const credentialId = () => binary(CREDENTIAL_ID_MAX).required('The credential id is required');
const credentialType = () => string().oneOf(['public-key'], 'Must be public-key').required('The credential type is required');

/** `POST auth/passkeys`: the name it is saved under and what navigator.credentials.create() answered. */
export const addPasskeySchema = object({
  name: name(),
  response: object({
    id: credentialId(),
    type: credentialType(),
    response: object({
      clientDataJSON: binary(CLIENT_DATA_MAX).required('clientDataJSON is required'),
      attestationObject: binary(ATTESTATION_MAX).required('attestationObject is required'),
      transports: array(rawLine(20).required()).max(10, 'Too many transports'),
    }).required('The authenticator response is required'),
  }).required('The credential is required'),
});
export type AddPasskeyPayload = InferType<typeof addPasskeySchema>;

/** `PATCH auth/passkeys/{id}`. */
export const renamePasskeySchema = object({ name: name() });
export type RenamePasskeyPayload = InferType<typeof renamePasskeySchema>;

/** `POST auth/passkeys/login`: what navigator.credentials.get() answered, and the app's audience. */
export const passkeyLoginSchema = object({
  response: object({
    id: credentialId(),
    type: credentialType(),
    response: object({
      clientDataJSON: binary(CLIENT_DATA_MAX).required('clientDataJSON is required'),
      authenticatorData: binary(AUTHENTICATOR_DATA_MAX).required('authenticatorData is required'),
      signature: binary(SIGNATURE_MAX).required('signature is required'),
      // A discoverable credential always returns the handle it was made with; the provider
      // refuses a sign-in without one.
      userHandle: binary(USER_HANDLE_MAX).nullable(),
    }).required('The authenticator response is required'),
  }).required('The credential is required'),
  audience: rawLine(200).required('Audience is required'),
});
export type PasskeyLoginPayload = InferType<typeof passkeyLoginSchema>;
