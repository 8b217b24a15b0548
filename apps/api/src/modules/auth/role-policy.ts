import type { TRole } from '@kubejourney/contracts';

/** Roles are checked by exact membership: an ADMIN route lists ADMIN, an instructor route both. */
export function hasAnyRole(role: TRole, allowed: readonly TRole[]): boolean {
  return allowed.includes(role);
}
