import { LoupeError } from '../errors/loupe-error';

/**
 * Nothing answers a path (Symfony's ResourceNotFoundException): the cause of the 404 the
 * RouterListener raises for a router's miss. A router answers `routeMiss()` rather than throwing
 * it; one that still throws it is understood until 1.0 (deprecated).
 */
export class ResourceNotFoundError extends LoupeError {
  constructor(path: string) {
    super('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', `No routes found for "${path}".`);
  }
}
