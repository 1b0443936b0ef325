import { PendingChangesPanel } from './PendingChangesPanel';

/** /sync: the Pending changes panel as a page of its own, to link to or keep open. */
export function PendingChangesPage() {
  return (
    <section className="mx-auto max-w-4xl p-6" aria-labelledby="pending-changes-heading">
      <h1 id="pending-changes-heading" className="text-2xl font-semibold text-brand-900">
        Pending changes
      </h1>
      <div className="mt-4">
        <PendingChangesPanel />
      </div>
    </section>
  );
}
