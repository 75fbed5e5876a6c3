import type { ExtractSchema } from 'hono/types';
import type { JSONParsed } from 'hono/utils/types';
import type { ApiContract, ApiFiles } from '../../shared/api-contract';
import type { API_VERSION } from '../../shared/constants';
import type { provider } from './index';

/**
 * Holds the shared API contract (src/shared/api-contract.ts) equal to the provider's routes, at
 * type level only: `npm run typecheck` fails when a route answers, takes or is named differently
 * from what the client is typed to expect. Nothing imports this file; the worker's tsconfig
 * checks it. The types come from Hono's own route schema: each handler's `c.json(...)` value and
 * the body and query its `jsonBody` / `queryOf` validators read.
 */

type Schema = ExtractSchema<typeof provider>;
type Calls = ApiContract & ApiFiles;

/** The provider's route for a contract key: `GET /users/:id` is `/v1/users/:id`'s `$get`. */
type RouteOf<K> = K extends `${infer Method} ${infer Path}`
  ? `/${typeof API_VERSION}${Path}` extends infer P extends keyof Schema
    ? `$${Lowercase<Method>}` extends infer M extends keyof Schema[P]
      ? Schema[P][M]
      : { missing: K }
    : { missing: K }
  : never;

type InputOf<R, Target extends string> = R extends { input: infer I } ? (I extends { [T in Target]: infer V } ? V : undefined) : undefined;
type Part<C, Name extends string> = C extends { [N in Name]: infer V } ? V : undefined;

type ProviderAnswers = { [K in keyof ApiContract]: RouteOf<K> extends { output: infer O } ? O : RouteOf<K> };
/** What the contract's answers are once sent as JSON, which is what a handler's type records. */
type ContractAnswers = { [K in keyof ApiContract]: JSONParsed<ApiContract[K]['response']> };
type ProviderBodies = { [K in keyof Calls]: InputOf<RouteOf<K>, 'json'> };
type ContractBodies = { [K in keyof Calls]: Part<Calls[K], 'body'> };
type ProviderQueries = { [K in keyof Calls]: InputOf<RouteOf<K>, 'query'> };
type ContractQueries = { [K in keyof Calls]: Part<Calls[K], 'query'> };

/** Every route of the provider as a contract key, e.g. `/v1/users/:id` + `$get` → `GET /users/:id`. */
type ProviderCalls = {
  [P in keyof Schema & string]: {
    [M in keyof Schema[P] & string]: `${Uppercase<M extends `$${infer Name}` ? Name : M>} ${P extends `/${typeof API_VERSION}${infer Path}` ? Path : P}`;
  }[keyof Schema[P] & string];
}[keyof Schema & string];

/** Compiles only when `Actual` fits `Expected`; the error names the call and field that differ. */
type Fits<Expected, Actual extends Expected> = Actual;

export type ContractHolds = [
  // Each call answers what the contract says, and the contract promises nothing it does not answer.
  Fits<ContractAnswers, ProviderAnswers>,
  Fits<ProviderAnswers, ContractAnswers>,
  // Each call reads the body and query the contract sends it.
  Fits<ContractBodies, ProviderBodies>,
  Fits<ProviderBodies, ContractBodies>,
  Fits<ContractQueries, ProviderQueries>,
  Fits<ProviderQueries, ContractQueries>,
  // No route is missing from the contract.
  Fits<keyof Calls, ProviderCalls>,
];
