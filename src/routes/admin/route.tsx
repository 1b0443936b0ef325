import { Outlet, createFileRoute, notFound } from '@tanstack/react-router';
import { loadUser, requireAccess } from '@/app/guard';
import { AdminLayout } from '@/features/admin/AdminLayout';

export const Route = createFileRoute('/admin')({
  // Site admins only (spec 000 §2: "Admin (admins only)"); anyone else is shown Page not found.
  beforeLoad: async (ctx) => {
    await requireAccess({ login: true })(ctx);
    const user = await loadUser(ctx.context.queryClient);
    if (!user?.is_admin) throw notFound();
  },
  component: () => (
    <AdminLayout>
      <Outlet />
    </AdminLayout>
  ),
});
