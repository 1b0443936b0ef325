import { isVerified } from '@/api/user';
import type { ServerInfo, User } from '@/api/types';

/** What the navbar and banners may show, as spec 000 §2 and §6 assign it. */
export interface ShellAccess {
  /** The user query answered: nobody is logged in. */
  anonymous: boolean;
  loggedIn: boolean;
  verified: boolean;
  process: boolean;
  search: boolean;
  /** Jobs load only for verified users; the counter still hides while there are none. */
  jobs: boolean;
  selection: boolean;
  /** Budgets and Secrets. */
  enterprise: boolean;
  admin: boolean;
  register: boolean;
}

/**
 * `user` is `undefined` while it is still loading, so that neither the anonymous nor the
 * logged-in parts flash before the answer is known.
 */
export function shellAccess(
  info: ServerInfo | null | undefined,
  user: User | null | undefined,
): ShellAccess {
  const features = info?.features;
  const loggedIn = !!user;
  const verified = isVerified(user);
  return {
    anonymous: !!info && user === null,
    loggedIn,
    verified,
    process: loggedIn,
    search: !!features?.search,
    jobs: verified,
    selection: !!features?.selection && verified,
    enterprise: !!features?.enterprise,
    admin: !!user?.is_admin,
    register: !!info && user === null && !!features?.signup,
  };
}
