/**
 * The head of the settings screens' tables (members, users, projects, allowed metadata): named
 * columns, then a last one for the row's buttons or links, named for screen readers only.
 */
export function ListTableHead({ columns, last }: { columns: string[]; last: string }) {
  return (
    <thead className="text-slate-500">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="py-2 pr-4 font-medium">
            {column}
          </th>
        ))}
        <th scope="col" className="py-2 font-medium">
          <span className="sr-only">{last}</span>
        </th>
      </tr>
    </thead>
  );
}
