import { useMutation } from '@tanstack/react-query';
import { VERIFICATION_SENT, resendVerificationEmail } from '@/api/user';
import { notify, notifyError } from '@/components/notifications/store';

/** Asks the server for a new verification e-mail and tells the user how it went. */
export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerificationEmail,
    onSuccess: () => notify({ type: 'success', text: VERIFICATION_SENT }),
    onError: (error) => notifyError(error),
  });
}
