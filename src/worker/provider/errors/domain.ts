import { forbiddenMessage, type Permission } from '../../../shared/permissions';
import type { Versioned } from '../../../shared/types';

/**
 * What the data layer reports when it refuses or finds nothing. It knows no HTTP: the provider's
 * onError turns each into its status and body once (http/errors.ts).
 */
export class DomainError extends Error {}

/** The record asked for does not exist; the message names it ('Ticket not found'). */
export class NotFound extends DomainError {}

/**
 * The write breaks a rule about the data as it stands (a taken name, a frozen line, a stale step);
 * `errors` names the fields at fault, so a form can show it under them.
 */
export class Conflict extends DomainError {
  constructor(
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** The caller's role may not make this write; `permission` names what it lacks. */
export class NotAllowed extends DomainError {
  constructor(readonly permission: Permission) {
    super(forbiddenMessage(permission));
  }
}

/** The request's values cannot be used; `errors` names the fields at fault. */
export class Invalid extends DomainError {
  constructor(
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** A write refused because the record is no longer at the version the caller edited: carries it as it now stands. */
export class StaleVersion<T extends Versioned = Versioned> extends DomainError {
  constructor(readonly current: T) {
    super(`The record is now at version ${current.version}`);
    this.name = 'StaleVersion';
  }
}

/** Too many sign-in attempts for now; `retryAfterSeconds` says when the limiter lets the next one through. */
export class TooManyAttempts extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed sign-in attempts. Try again later.');
  }
}
