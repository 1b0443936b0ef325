import { useQuery } from '@tanstack/react-query';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery } from '@/api/user';
import { shellAccess } from './access';

/** Server info, the user (undefined while unknown) and what the shell may show them. */
export function useShellAccess() {
  const info = useQuery(serverInfoQuery).data;
  // The user is only worth asking for once the server answered at all.
  const userQuery = useQuery({ ...currentUserQuery, enabled: !!info });
  // A failed refetch keeps the user it knew: only the server's answer changes who is logged in.
  const user = userQuery.data;
  return { info, user, access: shellAccess(info, user) };
}
