/** Messages of a failed request, read out as soon as they appear. */
export function ErrorList({ messages, id }: { messages: readonly string[]; id?: string }) {
  if (!messages.length) return null;
  return (
    <ul id={id} role="alert" className="flex flex-col gap-1 text-sm text-red-700">
      {messages.map((message, index) => (
        <li key={index}>{message}</li>
      ))}
    </ul>
  );
}
