/**
 * What the filter and configure steps share: the process they work on, loaded once, with the
 * tab titled after it and the step, and a message while it loads or when it cannot be read.
 */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api/errors';
import { processToConfigureQuery } from '@/api/processConfiguration';
import type { Process } from '@/api/processTypes';
import { PageMessage } from '@/components/PageMessage';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { useDocumentTitle } from '@/lib/documentTitle';
import { processTitle } from './processTitle';

export function ProcessStepLoader({
  processId,
  step,
  children,
}: {
  processId: string;
  step: string;
  children: (process: Process) => ReactNode;
}) {
  const process = useQuery(processToConfigureQuery(processId));
  useErrorNotification(process.error);
  useDocumentTitle([process.data ? processTitle(process.data) : undefined, step]);

  if (process.isPending)
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  if (process.isError)
    return (
      <PageMessage width="max-w-4xl">
        The process could not be loaded: {errorMessage(process.error)}
      </PageMessage>
    );
  return children(process.data);
}
