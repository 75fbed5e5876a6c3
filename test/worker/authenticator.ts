import { ECDSASignature } from '@oslojs/crypto/ecdsa';
import { fromBase64url, toBase64url } from '../../src/shared/base64url';
import type { PasskeyCreationOptions, PasskeyRequestOptions } from '../../src/shared/types';

/**
 * A passkey authenticator made in the test: a P-256 key from WebCrypto, and the attestation and
 * assertion a browser would hand over, byte for byte as WebAuthn lays them out, so the provider's
 * checks are exercised against real signatures. Each field can be spoiled to test a refusal.
 */

// Just enough CBOR (RFC 8949) for an attestation object and a COSE key.
const head = (major: number, length: number) => {
  if (length < 24) return [(major << 5) | length];
  if (length < 256) return [(major << 5) | 24, length];
  return [(major << 5) | 25, length >> 8, length & 0xff];
};
const cborInt = (value: number) => (value >= 0 ? head(0, value) : head(1, -1 - value));
const cborBytes = (bytes: Uint8Array) => [...head(2, bytes.length), ...bytes];
const cborText = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  return [...head(3, bytes.length), ...bytes];
};

const concat = (...parts: (Uint8Array | number[])[]): Uint8Array<ArrayBuffer> => new Uint8Array(parts.flatMap((part) => [...part]));
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
const uint32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Spoil {
  origin?: string;
  rpId?: string;
  type?: string;
  challenge?: string;
  userHandle?: string | null;
  counter?: number;
  /** Sign with another key than the registered one. */
  otherKey?: boolean;
  userPresent?: boolean;
}

export const TEST_ORIGIN = 'https://app.test';
export const TEST_RP_ID = 'app.test';

export class Authenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  counter = 0;
  userHandle: string | null = null;

  private constructor(
    private readonly keys: CryptoKeyPair,
    private readonly other: CryptoKeyPair,
  ) {}

  static async create() {
    const generate = () => crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
    return new Authenticator(await generate(), await generate());
  }

  get id() {
    return toBase64url(this.credentialId);
  }

  private clientData(type: string, challenge: string, spoil: Spoil) {
    return new TextEncoder().encode(JSON.stringify({ type: spoil.type ?? type, challenge: spoil.challenge ?? challenge, origin: spoil.origin ?? TEST_ORIGIN, crossOrigin: false }));
  }

  private async authenticatorData(rpId: string, flags: number, counter: number, attested: number[] = []) {
    return concat(await sha256(new TextEncoder().encode(rpId)), [flags], uint32(counter), attested);
  }

  private async coseKey() {
    const raw = new Uint8Array((await crypto.subtle.exportKey('raw', this.keys.publicKey)) as ArrayBuffer);
    // 1 (kty): 2 (EC2), 3 (alg): -7 (ES256), -1 (crv): 1 (P-256), -2: x, -3: y.
    return [...head(5, 5), ...cborInt(1), ...cborInt(2), ...cborInt(3), ...cborInt(-7), ...cborInt(-1), ...cborInt(1), ...cborInt(-2), ...cborBytes(raw.slice(1, 33)), ...cborInt(-3), ...cborBytes(raw.slice(33, 65))];
  }

  /** What navigator.credentials.create() gives as JSON for these options. */
  async register(options: PasskeyCreationOptions, spoil: Spoil = {}) {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, spoil);
    const flags = (spoil.userPresent === false ? 0 : FLAG_UP) | FLAG_UV | FLAG_AT;
    const attested = [...new Uint8Array(16), this.credentialId.length >> 8, this.credentialId.length & 0xff, ...this.credentialId, ...(await this.coseKey())];
    const authData = await this.authenticatorData(spoil.rpId ?? options.rp.id, flags, spoil.counter ?? this.counter, attested);
    const attestationObject = new Uint8Array([...head(5, 3), ...cborText('fmt'), ...cborText('none'), ...cborText('attStmt'), ...head(5, 0), ...cborText('authData'), ...cborBytes(authData)]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: toBase64url(clientDataJSON), attestationObject: toBase64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** What navigator.credentials.get() gives as JSON for these options; the counter goes up by one unless spoiled. */
  async signIn(options: PasskeyRequestOptions, spoil: Spoil = {}) {
    if (spoil.counter === undefined) this.counter += 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, spoil);
    const flags = (spoil.userPresent === false ? 0 : FLAG_UP) | FLAG_UV;
    const authData = await this.authenticatorData(spoil.rpId ?? options.rpId, flags, spoil.counter ?? this.counter);
    const signed = concat(authData, await sha256(clientDataJSON));
    const key = spoil.otherKey ? this.other.privateKey : this.keys.privateKey;
    const p1363 = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, signed));
    const toBig = (bytes: Uint8Array) => BigInt(`0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
    const der = new ECDSASignature(toBig(p1363.slice(0, 32)), toBig(p1363.slice(32))).encodePKIX();
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: toBase64url(clientDataJSON),
        authenticatorData: toBase64url(authData),
        signature: toBase64url(der),
        userHandle: spoil.userHandle === undefined ? this.userHandle : spoil.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

/** The user id a handle carries (the provider's own encoding: the id as text). */
export const handleOf = (userId: number) => toBase64url(new TextEncoder().encode(String(userId)));
export { fromBase64url };
