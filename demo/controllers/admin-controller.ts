import { UnauthorizedHttpError, type Controller } from '../../src';
import { DEMO_REALM } from '../firewalls';

/** `GET /admin`: names the authenticated user; the firewall only lets ROLE_ADMIN in. */
export const adminController: Controller = {
  name: 'admin.index',
  handle: ({ user }) => {
    // The firewall guards this path; this only matters if the access rule is ever removed.
    if (user === null) throw new UnauthorizedHttpError('Full authentication is required to access this resource.', `Basic realm="${DEMO_REALM}"`);
    return {
      message: `Welcome to the admin area, ${user.identifier}.`,
      user: user.identifier,
      roles: user.roles,
      via: user.via,
    };
  },
};
