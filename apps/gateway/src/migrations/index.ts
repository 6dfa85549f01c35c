import { declaredIndexesMigration, type Migration } from '@gl/service-kit';
import { ghostUser } from './ghost-user';
import { routesForEveryPath } from './routes-for-every-path';

/** gl_gateway's steps, oldest first; a release that changes indexes or document shapes appends one. */
export const GATEWAY_MIGRATIONS: readonly Migration[] = [
  declaredIndexesMigration(),
  routesForEveryPath,
  ghostUser,
  // Indexes for keyset pages: namespaces by { name, _id }, users by each order of GET /users and _id.
  declaredIndexesMigration(4),
];
