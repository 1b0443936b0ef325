import { CloseAction } from '@/components/modal/ModalActions';
import { Modal } from '@/components/modal/Modal';

/** The rules of spec 001 §2 "Search help", one a line, each with a query that shows it. */
export const SEARCH_HELP: { rule: string; example: string }[] = [
  { rule: 'Exact-word matching by default.', example: 'louis' },
  { rule: 'OR is the default operator.', example: 'louis paris' },
  { rule: 'AND is available.', example: 'louis AND paris' },
  // As in Arkindex, `louis -paris` is louis OR (not paris), which finds nearly everything: the
  // example shows the form that keeps louis's texts without paris.
  { rule: 'A minus sign negates.', example: 'louis AND -paris' },
  { rule: 'Quotes give a phrase.', example: '"saint louis"' },
  { rule: 'An asterisk gives a prefix.', example: 'lou*' },
  { rule: 'Parentheses give precedence.', example: '(louis OR paris) AND roi' },
  { rule: 'Hyphenated words count as two words.', example: 'saint-louis' },
];

export function SearchHelpModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal
      title="Search help"
      onClose={onClose}
      size="lg"
      footer={<CloseAction onClose={onClose} />}
    >
      <dl className="divide-y divide-slate-100">
        {SEARCH_HELP.map(({ rule, example }) => (
          <div key={rule} className="flex flex-wrap items-baseline justify-between gap-x-4 py-2">
            <dt>{rule}</dt>
            <dd>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-900">
                {example}
              </code>
            </dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
