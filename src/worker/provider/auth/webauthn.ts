import { decodePKIXECDSASignature, p256 } from '@oslojs/crypto/ecdsa';
import { RSAPublicKey } from '@oslojs/crypto/rsa';
import {
  ClientDataType,
  COSEKeyType,
  coseAlgorithmES256,
  coseAlgorithmRS256,
  coseEllipticCurveP256,
  createAssertionSignatureMessage,
  parseAttestationObject,
  parseAuthenticatorData,
  parseClientDataJSON,
  type AuthenticatorData,
  type COSEPublicKey,
} from '@oslojs/webauthn';
import { fromBase64url, toBase64url } from '../../../shared/base64url';

/**
 * Reading and checking WebAuthn answers (docs/api.md#passkeys). @oslojs/webauthn parses them
 * (CBOR, COSE, the authenticator data) and @oslojs/crypto decodes keys and signatures; WebCrypto
 * checks the signature, natively: the same check in JavaScript costs several milliseconds of the
 * Worker's CPU time per sign-in.
 */

/** Who the passkeys are for: the host name the page is served from, and the page's origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** The ways in offered: ES256 (every platform authenticator) and RS256 (Windows Hello). */
export const PUBLIC_KEY_ALGORITHMS = [coseAlgorithmES256, coseAlgorithmRS256] as const;
export type PublicKeyAlgorithm = (typeof PUBLIC_KEY_ALGORITHMS)[number];

/** Why an answer is refused; the route answers 400 for a registration and 401 for a sign-in. */
export class WebAuthnRefused extends Error {}

const refuse = (message: string): never => {
  throw new WebAuthnRefused(message);
};

const bytesOf = (text: string) => {
  try {
    return fromBase64url(text);
  } catch {
    return refuse('The passkey answer is not base64url');
  }
};

/** A fresh challenge: 32 random bytes, base64url. */
export const newChallenge = () => toBase64url(crypto.getRandomValues(new Uint8Array(32)));

/** The handle a person's passkeys carry (WebAuthn's user.id): their account id, as text bytes. */
export const userHandleOf = (userId: number) => toBase64url(new TextEncoder().encode(String(userId)));

interface ClientDataCheck {
  type: ClientDataType;
  party: RelyingParty;
}

/** The client data's challenge (base64url), once its type and origin are the expected ones. */
const checkClientData = (clientDataJSON: Uint8Array, { type, party }: ClientDataCheck) => {
  let clientData;
  try {
    clientData = parseClientDataJSON(clientDataJSON);
  } catch {
    return refuse('The passkey answer has no readable client data');
  }
  if (clientData.type !== type) refuse('The passkey answer is for another ceremony');
  if (clientData.origin !== party.origin) refuse(`The passkey answer comes from another origin than ${party.origin}`);
  if (clientData.crossOrigin) refuse('The passkey answer comes from a cross-origin frame');
  return toBase64url(clientData.challenge);
};

const checkAuthenticatorData = (data: AuthenticatorData, party: RelyingParty) => {
  if (!data.verifyRelyingPartyIdHash(party.id)) refuse(`The passkey is not for ${party.id}`);
  if (!data.userPresent) refuse('The authenticator did not confirm a person was present');
};

/**
 * SubjectPublicKeyInfo of a P-256 key: the fixed DER header (id-ecPublicKey, prime256v1, a 66-byte bit
 * string) before the uncompressed point. Written here because @oslojs/crypto's encoder misplaces a `y`
 * whose first byte is zero, which would store one passkey in 256 under a key it can never match.
 */
const P256_SPKI_HEADER = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00];
const coordinate = (value: bigint) => {
  const bytes = new Uint8Array(32);
  for (let i = 31, rest = value; i >= 0; i -= 1, rest >>= 8n) bytes[i] = Number(rest & 0xffn);
  return bytes;
};
const p256Spki = (x: bigint, y: bigint) => new Uint8Array([...P256_SPKI_HEADER, 0x04, ...coordinate(x), ...coordinate(y)]);

/** The key as SubjectPublicKeyInfo, for WebCrypto, with its algorithm; only ES256 on P-256 and RS256. */
const spkiOf = (key: COSEPublicKey): { publicKey: Uint8Array; algorithm: PublicKeyAlgorithm } => {
  try {
    const algorithm = key.algorithm();
    if (algorithm === coseAlgorithmES256 && key.type() === COSEKeyType.EC2) {
      const { curve, x, y } = key.ec2();
      if (curve === coseEllipticCurveP256) return { publicKey: p256Spki(x, y), algorithm };
    }
    if (algorithm === coseAlgorithmRS256 && key.type() === COSEKeyType.RSA) {
      const { n, e } = key.rsa();
      return { publicKey: new RSAPublicKey(n, e).encodePKIX(), algorithm };
    }
  } catch {
    // A key with missing or malformed members is refused below, as an unsupported one.
  }
  return refuse('The passkey uses a key type this app does not accept (ES256 or RS256)');
};

export interface NewCredential {
  challenge: string;
  credentialId: string;
  publicKey: string;
  algorithm: PublicKeyAlgorithm;
  signCount: number;
}

/**
 * What navigator.credentials.create() answered, checked against this relying party: a new
 * credential for this RP ID and origin. Attestation is not asked for ('none'), so its statement
 * is not read; the challenge is returned for the caller to consume in its write.
 */
export const readRegistration = (response: { clientDataJSON: string; attestationObject: string }, party: RelyingParty): NewCredential => {
  const challenge = checkClientData(bytesOf(response.clientDataJSON), { type: ClientDataType.Create, party });
  let authenticatorData;
  try {
    ({ authenticatorData } = parseAttestationObject(bytesOf(response.attestationObject)));
  } catch {
    return refuse('The passkey answer has no readable attestation');
  }
  checkAuthenticatorData(authenticatorData, party);
  const { credential } = authenticatorData;
  if (!credential) return refuse('The passkey answer holds no credential');
  const { publicKey, algorithm } = spkiOf(credential.publicKey);
  return { challenge, credentialId: toBase64url(credential.id), publicKey: toBase64url(publicKey), algorithm, signCount: authenticatorData.signatureCounter };
};

export interface Assertion {
  challenge: string;
  /** The authenticator data's signature counter. */
  signCount: number;
  authenticatorData: Uint8Array<ArrayBuffer>;
  clientDataJSON: Uint8Array<ArrayBuffer>;
  signature: Uint8Array<ArrayBuffer>;
}

/** What navigator.credentials.get() answered, checked against this relying party (not yet its signature). */
export const readAssertion = (response: { clientDataJSON: string; authenticatorData: string; signature: string }, party: RelyingParty): Assertion => {
  const clientDataJSON = bytesOf(response.clientDataJSON);
  const authenticatorData = bytesOf(response.authenticatorData);
  const challenge = checkClientData(clientDataJSON, { type: ClientDataType.Get, party });
  let data;
  try {
    data = parseAuthenticatorData(authenticatorData);
  } catch {
    return refuse('The passkey answer has no readable authenticator data');
  }
  checkAuthenticatorData(data, party);
  return { challenge, signCount: data.signatureCounter, authenticatorData, clientDataJSON, signature: bytesOf(response.signature) };
};

const IMPORT = {
  [coseAlgorithmES256]: { name: 'ECDSA', namedCurve: 'P-256' },
  [coseAlgorithmRS256]: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
} as const;

/** Whether the assertion's signature is the stored key's, over its authenticator data and client data. */
export const signatureMatches = async (assertion: Assertion, stored: { publicKey: string; algorithm: PublicKeyAlgorithm }) => {
  const message = createAssertionSignatureMessage(assertion.authenticatorData, assertion.clientDataJSON);
  try {
    const key = await crypto.subtle.importKey('spki', fromBase64url(stored.publicKey), IMPORT[stored.algorithm], false, ['verify']);
    if (stored.algorithm === coseAlgorithmRS256) {
      return await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, assertion.signature, new Uint8Array(message));
    }
    // WebAuthn's ECDSA signatures are DER; WebCrypto takes r and s side by side (IEEE P1363).
    const signature = decodePKIXECDSASignature(assertion.signature).encodeIEEEP1363(p256);
    return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, new Uint8Array(signature), new Uint8Array(message));
  } catch {
    return false;
  }
};

/** The relying party of a request the passthrough forwarded: its host name and origin, as the browser saw them. */
export const relyingPartyOf = (url: string, forwardedHost: string | undefined, forwardedProto: string | undefined): RelyingParty => {
  const own = new URL(url);
  const origin = new URL(`${forwardedProto ?? own.protocol.replace(':', '')}://${forwardedHost ?? own.host}`);
  return { id: origin.hostname, origin: origin.origin };
};
