import type { ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateElements, type ElementCreate } from '@/api/elements';
import { createElement } from '@/offline/elementWrites';
import type { Element, ElementType } from '@/api/types';
import { notify, type NotifyOptions } from '@/components/notifications/store';
import { newElementFields, type ElementFields } from '@/lib/elementForm';
import { NameTypeModal } from './NameTypeModal';
import { useNameTypeForm } from './useNameTypeForm';
import { savedNotice } from '@/offline/runtime';

export interface NewElementModalProps {
  title: string;
  /** The types offered, in the project's order. */
  types: readonly ElementType[];
  /** What the API is asked to create from the checked fields. */
  creation: (fields: ElementFields) => ElementCreate;
  /** The success notification. */
  notice: (created: Element) => NotifyOptions;
  /** Before the reason of a failure. */
  errorPrefix: string;
  onClose: () => void;
  onCreated?: (created: Element) => void;
  /** What the modal says above the fields. */
  children?: ReactNode;
}

/** Creates an element from a name and a type: the New folder and Create sub-element modals. */
export function NewElementModal({
  title,
  types,
  creation,
  notice,
  errorPrefix,
  onClose,
  onCreated,
  children,
}: NewElementModalProps) {
  const form = useNameTypeForm(newElementFields(types));
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (fields: ElementFields) => createElement(creation(fields)),
    onSuccess: async (created) => {
      const told = notice(created);
      notify({ ...told, text: savedNotice(told.text) });
      onClose();
      onCreated?.(created);
      await invalidateElements(queryClient);
    },
    onError: (error) => form.fail(error, errorPrefix),
  });
  return (
    <NameTypeModal
      title={title}
      form={form}
      types={types}
      submitLabel="Create"
      pending={create.isPending}
      onSubmit={() => create.mutate(form.fields)}
      onClose={onClose}
    >
      {children}
    </NameTypeModal>
  );
}
