import type { User } from '@/api/types';
import { userWith } from '../support/fixtures';

export { makeInfo } from '../support/fixtures';

export function makeUser(overrides: Partial<User> = {}): User {
  return userWith('11111111-2222-4333-8444-555555555555', overrides);
}

export const UUID = '3f2a7c1e-9b4d-4e8a-a1f0-2c6d8e9b0a17';
