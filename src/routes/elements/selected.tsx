import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { matchClasses } from '@/features/classifications/classSearch';
import { AddToDatasetModal } from '@/features/datasets/addTo/AddToDatasetModal';
import { ExportProcessModal } from '@/features/exports/ExportProcessModal';
import { SelectionPage } from '@/features/selection/SelectionPage';

export const Route = createFileRoute('/elements/selected')({
  staticData: { name: 'elements-selected' },
  beforeLoad: requireAccess({ feature: 'selection', login: true, verified: true }),
  component: () => (
    <SelectionPage
      matchClasses={matchClasses}
      renderAddToDataset={(corpusId, onClose) => (
        <AddToDatasetModal corpusId={corpusId} target={{ kind: 'selection' }} onClose={onClose} />
      )}
      renderExport={(corpus, onClose) => (
        <ExportProcessModal
          corpusId={corpus.id}
          corpusName={corpus.name}
          selection
          onClose={onClose}
        />
      )}
    />
  ),
});
