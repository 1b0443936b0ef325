import { Navigate } from '@tanstack/react-router';
import type { Process } from '@/api/processTypes';
import { isConfigurable } from './loaders';

/**
 * The loader sends a started process to its details; this does the same when it starts while
 * the page is open (started from another tab), since its filters and runs no longer change.
 */
export function StartedRedirect({ process }: { process: Process }) {
  if (isConfigurable(process)) return null;
  return (
    <Navigate
      to="/process/$id/{-$selectedRun}"
      params={{ id: process.id, selectedRun: undefined }}
      replace
    />
  );
}
