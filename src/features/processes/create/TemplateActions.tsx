import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  applyTemplate,
  createTemplate,
  processConfigurationKeys,
  templatesQuery,
} from '@/api/processConfiguration';
import { processKeys } from '@/api/processes';
import type { Process } from '@/api/processTypes';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { notify, notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { processTitle } from './processTitle';

/**
 * Templates of the project (processes that never run): apply one to replace this process'
 * worker runs with copies of its runs, or save this process' runs as a new template.
 */
export function TemplateActions({ process, hasRuns }: { process: Process; hasRuns: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const offline = useNeedsNetwork();
  const corpusId = process.corpus ?? '';
  const templates = useQuery({ ...templatesQuery(corpusId), enabled: !!corpusId });
  const [templateId, setTemplateId] = useState('');

  const apply = useMutation({
    mutationFn: () => applyTemplate(templateId, process.id),
    onSuccess: async (updated) => {
      queryClient.setQueryData(processConfigurationKeys.process(process.id), updated);
      await queryClient.invalidateQueries({
        queryKey: processConfigurationKeys.workerRuns(process.id),
      });
      notify({ type: 'success', text: 'The template has been applied.' });
    },
    onError: (error) => notifyError(error),
  });
  const save = useMutation({
    mutationFn: () => createTemplate(process.id),
    onSuccess: async (template) => {
      await queryClient.invalidateQueries({
        queryKey: processConfigurationKeys.templates(corpusId),
      });
      void queryClient.invalidateQueries({ queryKey: processKeys.lists() });
      notify({
        type: 'success',
        text: `Template ${processTitle(template)} created.`,
        link: { url: `/process/${template.id}`, text: 'See the template' },
      });
    },
    onError: (error) => notifyError(error),
  });
  const list = templates.data ?? [];

  return (
    <section aria-label="Templates" className={`${ui.card} flex flex-wrap items-end gap-3`}>
      <div className="min-w-56 grow">
        <label htmlFor={id} className={ui.label}>
          Template
        </label>
        <select
          id={id}
          className={ui.input}
          value={templateId}
          disabled={templates.isPending || list.length === 0}
          onChange={(event) => setTemplateId(event.target.value)}
        >
          <option value="">
            {templates.isSuccess && list.length === 0
              ? 'This project has no templates'
              : 'Choose a template'}
          </option>
          {list.map((template) => (
            <option key={template.id} value={template.id}>
              {processTitle(template)}
            </option>
          ))}
        </select>
      </div>
      <GuardedButton
        blocked={offline ?? (templateId ? null : 'Choose a template')}
        className={ui.secondaryButton}
        disabled={apply.isPending}
        onClick={() => apply.mutate()}
      >
        Apply a template
      </GuardedButton>
      <GuardedButton
        blocked={offline ?? (hasRuns ? null : 'Add a worker first')}
        className={ui.secondaryButton}
        disabled={save.isPending}
        onClick={() => save.mutate()}
      >
        Create a template
      </GuardedButton>
    </section>
  );
}
