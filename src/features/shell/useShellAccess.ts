import { useQuery } from '@tanstack/react-query';
import { serverInfoQuery } from '@/api/serverInfo';
import { currentUserQuery } from '@/api/user';
import { shellAccess } from './access';

/** Server info, the user (undefined while unknown) and what the shell may show them. */
export function useShellAccess() {
  const info = useQuery(serverInfoQuery).data;
  // The user is only worth asking for once the server answered at all.
  const userQuery = useQuery({ ...currentUserQuery, enabled: !!info });
  const user = userQuery.isSuccess ? userQuery.data : undefined;
  return { info, user, access: shellAccess(info, user) };
}
