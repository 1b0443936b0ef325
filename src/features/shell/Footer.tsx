import type { ServerInfo } from '@/api/types';

export const SUPPORT_URL = 'https://support.teklia.com';
export const DOCUMENTATION_URL = 'https://doc.teklia.com/arkindex/';

export function Footer({ info }: { info: ServerInfo | null | undefined }) {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 text-sm text-slate-600">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
        {info && (
          <>
            <span>Version {info.version}</span>
            <span>{info.features.enterprise ? 'Enterprise edition' : 'Community edition'}</span>
          </>
        )}
        <span className="ml-auto flex gap-4">
          <a
            href={SUPPORT_URL}
            target="_blank"
            rel="noreferrer"
            className="hover:text-brand-700 hover:underline"
          >
            Support
          </a>
          <a
            href={DOCUMENTATION_URL}
            target="_blank"
            rel="noreferrer"
            className="hover:text-brand-700 hover:underline"
          >
            Documentation
          </a>
        </span>
      </div>
    </footer>
  );
}
