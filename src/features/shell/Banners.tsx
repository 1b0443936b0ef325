import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Banner } from '@/api/types';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { MarkdownContent } from '@/components/MarkdownContent';
import type { ShellAccess } from './access';
import { useLoginSearch } from './loginNext';
import { useResendVerification } from './useResendVerification';

type Tone = Banner['style'];

const TONES: Record<Tone, string> = {
  info: 'border-sky-200 bg-sky-50 text-sky-900',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
};

function BannerBox({ tone, label, children }: { tone: Tone; label: string; children: ReactNode }) {
  return (
    <section aria-label={label} data-tone={tone} className={`border-b text-sm ${TONES[tone]}`}>
      <div className="mx-auto max-w-7xl px-4 py-2">{children}</div>
    </section>
  );
}

const bannerLink = 'font-medium underline underline-offset-2 hover:no-underline';

/** The instance's own message, written by its administrators in Markdown. */
export function ServerBanner({ banner }: { banner: Banner | null | undefined }) {
  if (!banner?.message) return null;
  const tone: Tone = banner.style in TONES ? banner.style : 'info';
  return (
    <BannerBox tone={tone} label="Site announcement">
      <MarkdownContent className="[&_a]:underline [&_p]:inline" source={banner.message} />
    </BannerBox>
  );
}

export function AnonymousBanner({ register }: { register: boolean }) {
  const search = useLoginSearch();
  return (
    <BannerBox tone="info" label="Not logged in">
      You are browsing as a visitor and only see public projects.{' '}
      <Link to="/user/login" search={search} className={bannerLink}>
        Log in
      </Link>
      {register ? (
        <>
          {' or '}
          <Link to="/user/register" search={search} className={bannerLink}>
            create an account
          </Link>
        </>
      ) : null}{' '}
      to annotate documents and run processes.
    </BannerBox>
  );
}

export function UnverifiedBanner() {
  const resend = useResendVerification();
  const offline = useNeedsNetwork();
  return (
    <BannerBox tone="warning" label="Unverified email">
      A verification email has been sent to your address. Follow the link it contains to verify your
      account and use every feature.{' '}
      <GuardedButton
        blocked={offline}
        onClick={() => resend.mutate()}
        disabled={resend.isPending}
        className={`${bannerLink} disabled:opacity-60 aria-disabled:opacity-60`}
      >
        Resend the verification email
      </GuardedButton>
    </BannerBox>
  );
}

export function NoPasswordBanner() {
  return (
    <BannerBox tone="warning" label="No password">
      Your account has no password yet, so you cannot log in with your email address.{' '}
      <Link to="/user/password_reset" className={bannerLink}>
        Set a password
      </Link>
    </BannerBox>
  );
}

/** The banners that follow the navbar and scroll with the page. */
export function PageBanners({
  access,
  banner,
  hasUsablePassword,
}: {
  access: ShellAccess;
  banner: Banner | null | undefined;
  hasUsablePassword: boolean;
}) {
  return (
    <>
      <ServerBanner banner={banner} />
      {access.anonymous && <AnonymousBanner register={access.register} />}
      {access.loggedIn && !hasUsablePassword && <NoPasswordBanner />}
    </>
  );
}
