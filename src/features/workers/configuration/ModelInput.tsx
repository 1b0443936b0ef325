/**
 * A model field: pick one of the models the user can read (GET /models/, narrowed by a name
 * search, as an instance may hold more models than a list can show), or paste a model's UUID,
 * for models this list does not hold (another user's, one to be shared later).
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState, type InputHTMLAttributes } from 'react';
import { modelChoicesQuery } from '@/api/workers';
import { ui } from '@/components/styles';

export function ModelInput({
  value,
  onChange,
  inputProps,
}: {
  value: string;
  onChange: (value: string) => void;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
}) {
  const [search, setSearch] = useState('');
  const name = useDeferredValue(search.trim());
  const models = useQuery({ ...modelChoicesQuery(name), enabled: !inputProps.disabled });
  const choices = models.data?.results ?? [];
  const known = choices.some((model) => model.id === value);
  return (
    <div className="mt-1 flex flex-col gap-2 sm:flex-row">
      <input
        type="search"
        aria-label="Search models by name"
        placeholder="Search models"
        className={`${ui.input} mt-0 sm:w-1/4`}
        value={search}
        disabled={inputProps.disabled}
        onChange={(event) => setSearch(event.target.value)}
      />
      <select
        aria-label="Pick a model"
        className={`${ui.input} mt-0 sm:w-1/4`}
        value={known ? value : ''}
        disabled={inputProps.disabled}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">
          {models.isPending && !inputProps.disabled ? 'Loading…' : 'Pick a model'}
        </option>
        {choices.map((model) => (
          <option key={model.id} value={model.id}>
            {model.name}
          </option>
        ))}
      </select>
      <input
        type="text"
        maxLength={36}
        placeholder="or paste a model UUID"
        className={`${ui.input} mt-0 font-mono sm:w-1/2`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...inputProps}
      />
    </div>
  );
}
