import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { Process } from '@/api/processTypes';
import { ui } from '@/components/styles';
import { processTitle } from './processTitle';
import { StartedRedirect } from './StartedRedirect';

/**
 * The header both steps share: which process, of which project and from which element, where
 * the user is in the two steps, and the way to the other step.
 */
export function ProcessStepHeader({
  process,
  corpusName,
  step,
  action,
}: {
  process: Process;
  corpusName: string | null | undefined;
  step: string;
  action: ReactNode;
}) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-3">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-brand-900">{processTitle(process)}</h1>
        <p className="text-sm font-medium text-slate-700">{step}</p>
        <p className="flex flex-wrap gap-x-4 text-sm text-slate-600">
          {process.corpus && (
            <span>
              Project:{' '}
              <Link
                to="/browse/$corpusId"
                params={{ corpusId: process.corpus }}
                className={ui.link}
              >
                {corpusName ?? process.corpus}
              </Link>
            </span>
          )}
          {process.element && (
            <span>
              Element:{' '}
              <Link to="/element/$id" params={{ id: process.element.id }} className={ui.link}>
                {process.element.name}
              </Link>
            </span>
          )}
          {process.selection_count > 0 && (
            <span>
              From {process.selection_count} selected element
              {process.selection_count === 1 ? '' : 's'}
            </span>
          )}
        </p>
      </div>
      {action}
    </header>
  );
}

/**
 * The first step's header (choosing elements, or dataset sets): a process already started goes
 * to its page instead, and the way on is "Configure workers".
 */
export function FirstStepHeader({
  process,
  corpusName,
  step,
}: {
  process: Process;
  corpusName: string | null | undefined;
  step: string;
}) {
  return (
    <>
      <StartedRedirect process={process} />
      <ProcessStepHeader
        process={process}
        corpusName={corpusName}
        step={step}
        action={
          <Link
            to="/process/$id/configure"
            params={{ id: process.id }}
            className={ui.primaryButton}
          >
            Configure workers
          </Link>
        }
      />
    </>
  );
}
