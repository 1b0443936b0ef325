/** A screen that a later issue builds: it shows its route name until then. */
export function RoutePlaceholder({ name }: { name: string }) {
  return (
    <section className="mx-auto max-w-5xl p-6">
      <h1 className="text-2xl font-semibold">{name}</h1>
    </section>
  );
}
