import { ECDSASignature } from '@oslojs/crypto/ecdsa';
import { fromBase64url, toBase64url } from '../../src/shared/base64url';
import type { PasskeyCreationOptions, PasskeyRequestOptions } from '../../src/shared/types';

/**
 * A passkey authenticator made in the test: a key pair from WebCrypto (P-256 unless told otherwise), and the attestation and
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

/** ES256 on P-256 (most authenticators), RS256 (Windows Hello), or EdDSA, which the app does not take. */
export type KeyKind = 'ES256' | 'RS256' | 'EdDSA';

const KEY_PARAMS = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  EdDSA: { name: 'Ed25519' },
} as const;

export class Authenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  counter = 0;
  userHandle: string | null = null;

  private constructor(
    private readonly kind: KeyKind,
    private readonly keys: CryptoKeyPair,
    private readonly other: CryptoKeyPair,
  ) {}

  static async create(kind: KeyKind = 'ES256') {
    const generate = () => crypto.subtle.generateKey(KEY_PARAMS[kind], true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
    return new Authenticator(kind, await generate(), await generate());
  }

  /** A P-256 authenticator whose public key's `coordinate` starts with a zero byte (one key in 256), which encoders get wrong. */
  static async withLeadingZero(coordinate: 'x' | 'y') {
    const at = coordinate === 'x' ? 1 : 33;
    for (;;) {
      const made = await Authenticator.create();
      const raw = new Uint8Array((await crypto.subtle.exportKey('raw', made.keys.publicKey)) as ArrayBuffer);
      if (raw[at] === 0) return made;
    }
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
    if (this.kind === 'RS256') {
      const jwk = (await crypto.subtle.exportKey('jwk', this.keys.publicKey)) as JsonWebKey;
      // 1 (kty): 3 (RSA), 3 (alg): -257 (RS256), -1: n, -2: e.
      return [...head(5, 4), ...cborInt(1), ...cborInt(3), ...cborInt(3), ...cborInt(-257), ...cborInt(-1), ...cborBytes(fromBase64url(jwk.n ?? '')), ...cborInt(-2), ...cborBytes(fromBase64url(jwk.e ?? ''))];
    }
    const raw = new Uint8Array((await crypto.subtle.exportKey('raw', this.keys.publicKey)) as ArrayBuffer);
    if (this.kind === 'EdDSA') {
      // 1 (kty): 1 (OKP), 3 (alg): -8 (EdDSA), -1 (crv): 6 (Ed25519), -2: x.
      return [...head(5, 4), ...cborInt(1), ...cborInt(1), ...cborInt(3), ...cborInt(-8), ...cborInt(-1), ...cborInt(6), ...cborInt(-2), ...cborBytes(raw)];
    }
    // 1 (kty): 2 (EC2), 3 (alg): -7 (ES256), -1 (crv): 1 (P-256), -2: x, -3: y.
    return [...head(5, 5), ...cborInt(1), ...cborInt(2), ...cborInt(3), ...cborInt(-7), ...cborInt(-1), ...cborInt(1), ...cborInt(-2), ...cborBytes(raw.slice(1, 33)), ...cborInt(-3), ...cborBytes(raw.slice(33, 65))];
  }

  private async sign(data: Uint8Array<ArrayBuffer>, otherKey: boolean) {
    const key = otherKey ? this.other.privateKey : this.keys.privateKey;
    if (this.kind === 'RS256') return new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, data));
    // ECDSA: WebCrypto signs r and s side by side; WebAuthn sends them DER-encoded.
    const p1363 = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, data));
    const toBig = (bytes: Uint8Array) => BigInt(`0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
    return new ECDSASignature(toBig(p1363.slice(0, 32)), toBig(p1363.slice(32))).encodePKIX();
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
    const der = await this.sign(concat(authData, await sha256(clientDataJSON)), spoil.otherKey ?? false);
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
