import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@/api/user';

/** Site admins create, edit and delete budgets; the server refuses anyone else all the same. */
export function useSiteAdmin(): boolean {
  return !!useQuery(currentUserQuery).data?.is_admin;
}
