import { ApiError, errorMessage } from '@/api/errors';
import { FILTER_LABELS, isFilterName } from '@/lib/filters';

const GENERAL_FIELDS = ['detail', 'non_field_errors', '__all__'];

const PARAMETER_LABELS: Record<string, string> = {
  page: 'Page',
  page_size: 'Page size',
  order: 'Order',
  order_direction: 'Direction',
  metadata_operator: 'Metadata operator',
};

function label(field: string): string {
  return isFilterName(field) ? FILTER_LABELS[field] : (PARAMETER_LABELS[field] ?? field);
}

/** The messages of a failed listing, general ones first, field names read as filter labels. */
export function listingErrorMessages(error: unknown): string[] {
  if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0) {
    return [errorMessage(error)];
  }
  const entries = Object.entries(error.fields);
  const general = entries.filter(([field]) => GENERAL_FIELDS.includes(field));
  const perField = entries.filter(([field]) => !GENERAL_FIELDS.includes(field));
  return [
    ...general.flatMap(([, messages]) => messages),
    ...perField.flatMap(([field, messages]) => messages.map((m) => `${label(field)}: ${m}`)),
  ];
}

/** The red box of spec 001 §8 ("Listing"). */
export function ListingError({ error }: { error: unknown }) {
  const messages = listingErrorMessages(error);
  return (
    <div className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <h2 className="font-semibold">An error occurred while listing elements</h2>
      <ul className="mt-1 list-disc pl-5">
        {messages.map((message, index) => (
          <li key={index}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
