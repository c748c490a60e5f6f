import { LoupeError } from '../errors/loupe-error';

/**
 * A path exists for other methods only (Symfony's MethodNotAllowedException, which has no
 * message); the RouterListener turns it into a 405 with an `Allow` header.
 */
export class MethodNotAllowedError extends LoupeError {
  /** Upper-cased, de-duplicated, in route order. */
  readonly allowedMethods: readonly string[];

  constructor(allowedMethods: readonly string[]) {
    super('LOUPE_ERR_ROUTING_METHOD_NOT_ALLOWED', '');
    this.allowedMethods = Object.freeze([...new Set(allowedMethods.map((method) => method.toUpperCase()))]);
  }
}
