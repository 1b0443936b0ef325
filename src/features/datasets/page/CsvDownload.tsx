import type { ReactNode } from 'react';
import { datasetCsvUrl } from '@/api/datasets';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';

/**
 * A dataset's split as CSV, whole or one set. The server writes it: offline the link gives way
 * to a button that says why, rather than a download that fails.
 */
export function CsvDownload({
  datasetId,
  set,
  children,
}: {
  datasetId: string;
  set?: string;
  children: ReactNode;
}) {
  const offline = useNeedsNetwork();
  if (offline) {
    return (
      <GuardedButton className={ui.secondaryButton} blocked={offline}>
        {children}
      </GuardedButton>
    );
  }
  return (
    <a href={datasetCsvUrl(datasetId, set)} download className={ui.secondaryButton}>
      {children}
    </a>
  );
}
