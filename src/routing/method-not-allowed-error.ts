import { LoupeError } from '../errors/loupe-error';

/**
 * A path exists for other methods only (Symfony's MethodNotAllowedException, which has no
 * message): the cause of the 405, with an `Allow` header, the RouterListener raises for a router's
 * miss that lists allowed methods. A router answers `routeMiss(methods)` rather than throwing it;
 * one that still throws it is understood until 1.0 (deprecated).
 */
export class MethodNotAllowedError extends LoupeError {
  /** Upper-cased, de-duplicated, in route order. */
  readonly allowedMethods: readonly string[];

  constructor(allowedMethods: readonly string[]) {
    super('LOUPE_ERR_ROUTING_METHOD_NOT_ALLOWED', '');
    this.allowedMethods = Object.freeze([...new Set(allowedMethods.map((method) => method.toUpperCase()))]);
  }
}
