import { useEffect, useId, useState, type FormEvent } from 'react';
import { ui } from '@/components/styles';

/** A list's search field: the search runs on submit, so each keystroke is not a request. */
export function SearchBox({
  label,
  value,
  onSearch,
}: {
  label: string;
  value: string;
  onSearch: (value: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  // Back and forward change the address, and the field follows it.
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="grow">
        <label htmlFor={id} className={ui.label}>
          {label}
        </label>
        <input
          id={id}
          type="search"
          value={text}
          maxLength={250}
          onChange={(event) => setText(event.target.value)}
          className={ui.input}
        />
      </div>
      <button type="submit" className={ui.secondaryButton}>
        Search
      </button>
    </form>
  );
}
