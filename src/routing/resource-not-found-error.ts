import { LoupeError } from '../errors/loupe-error';

/** Nothing answers a path (Symfony's ResourceNotFoundException); the RouterListener turns it into a 404. */
export class ResourceNotFoundError extends LoupeError {
  constructor(path: string) {
    super('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', `No routes found for "${path}".`);
  }
}
