import { useConnectivity } from '@/offline/runtime';

/** Whether the API answers, as the offline layer's probe last found it. */
export function useOnline(): boolean {
  return useConnectivity().online;
}
