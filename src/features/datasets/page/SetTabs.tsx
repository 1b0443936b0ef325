/** One tab per set, with its badge and count; the tab shown is the page's `set` query. */
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { Dataset } from '@/api/datasets';
import { SetBadge } from '../SetBadge';
import { CsvDownload } from './CsvDownload';
import { SetElements } from './SetElements';

export function SetTabs({
  dataset,
  selected,
  onSelect,
  typeName,
}: {
  dataset: Dataset;
  /** The set shown by name; the first when absent or unknown. */
  selected: string | undefined;
  onSelect: (set: string) => void;
  typeName: (slug: string) => string;
}) {
  const found = dataset.sets.findIndex((set) => set.name === selected);
  const index = found < 0 ? 0 : found;
  return (
    <TabGroup
      selectedIndex={index}
      onChange={(at) => {
        const set = dataset.sets[at];
        if (set) onSelect(set.name);
      }}
    >
      <TabList aria-label="Sets" className="flex flex-wrap gap-2 border-b border-slate-200">
        {dataset.sets.map((set, at) => (
          <Tab
            key={set.id}
            className="-mb-px flex items-center gap-2 rounded-t-md border border-transparent px-3 py-2 text-sm text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500 data-[selected]:border-slate-200 data-[selected]:border-b-white data-[selected]:bg-white data-[selected]:font-semibold"
          >
            <SetBadge name={set.name} index={at} />
            <span className="tabular-nums">{dataset.set_elements[set.name] ?? 0}</span>
          </Tab>
        ))}
      </TabList>
      <TabPanels className="pt-4">
        {dataset.sets.map((set) => (
          <TabPanel key={set.id} className="flex flex-col gap-4" unmount>
            <p>
              <CsvDownload datasetId={dataset.id} set={set.name}>
                Download CSV of set {set.name}
              </CsvDownload>
            </p>
            <SetElements datasetId={dataset.id} set={set.name} typeName={typeName} />
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
